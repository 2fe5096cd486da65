import { describe, expect, it } from 'vitest';
import { pathOf, routePaths } from './paths';
import { routes } from './routes';

describe('pathOf', () => {
  it('fills the route params into the path', () => {
    expect(pathOf('operationDetail', { operationID: 12 })).toBe('/operations/12');
    expect(pathOf('help')).toBe('/help');
  });

  it('encodes a param value', () => {
    expect(pathOf('notificationDetail', { notificationID: 'a/b' })).toBe('/notifications/a%2Fb');
  });

  it('refuses, at compile time, a missing param, a param a path does not take and an unknown route', () => {
    // Each line below must fail the typecheck; an unused @ts-expect-error fails it too. (A route
    // declared `ready: false` is refused the same way; every screen of the spec is built now.)
    // @ts-expect-error help takes no params
    expect(pathOf('help', { id: 1 })).toBe('/help');
    // @ts-expect-error operationDetail needs its operationID
    expect(() => pathOf('operationDetail')).toThrow('Missing param operationID');
    // @ts-expect-error no such route
    expect(() => pathOf('nope')).toThrow();
  });

  it('gives every named path exactly one screen declaration', () => {
    expect(routes.map((r) => r.name).sort()).toEqual(Object.keys(routePaths).sort());
  });
});
