import { describe, expect, it } from 'vitest';
import { ERRORS, ErrorCode, errorByCode } from './errors.js';

describe('the error-code registry', () => {
  it('hands out every code once', () => {
    const codes = Object.values(ERRORS).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('keeps route-not-found and operation-not-found apart', () => {
    expect(ErrorCode.RouteNotFound).toBe(4044);
    expect(ErrorCode.OperationNotFound).not.toBe(ErrorCode.RouteNotFound);
  });

  it('pairs each code with a 4xx/5xx status of the same hundred, except login refusals that answer 400', () => {
    for (const [name, def] of Object.entries(ERRORS)) {
      expect(def.text, name).not.toBe('');
      const loginRefusal = def.status === 400 && Math.floor(def.code / 10) === 401;
      if (!loginRefusal) expect(Math.floor(def.code / 10), name).toBe(def.status);
    }
  });

  it('finds an entry by its code', () => {
    expect(errorByCode(4044)?.status).toBe(404);
    expect(errorByCode(1234)).toBeUndefined();
  });
});
