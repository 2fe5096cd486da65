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

  it('starts each code with its 4xx/5xx status, except login refusals that answer 400', () => {
    // Four digits (4041), or five once a status's ten are taken (40410).
    const statusOf = (code: number) => Number(String(code).slice(0, 3));
    for (const [name, def] of Object.entries(ERRORS)) {
      expect(def.text, name).not.toBe('');
      expect(String(def.code), name).toMatch(/^[45]\d{3,4}$/);
      // Sign-in's refusals took 4010-4019; single sign-on's go on at 4020-4024 (no 402 status is used).
      const loginRefusal = def.status === 400 && (statusOf(def.code) === 401 || statusOf(def.code) === 402);
      if (!loginRefusal) expect(statusOf(def.code), name).toBe(def.status);
    }
  });

  it('finds an entry by its code', () => {
    expect(errorByCode(4044)?.status).toBe(404);
    expect(errorByCode(1234)).toBeUndefined();
  });
});
