import { describe, expect, expectTypeOf, it } from 'vitest';
import { AuthType } from './enums.js';
import { field, keyOrderFields, type RowOf, type StoredOf } from './listFields.js';
import { type ListFields, ListQueryError, parseListQuery } from './listQuery.js';
import type { Notification } from './schemas/notifications.js';
import type { SiteAccount } from './schemas/sites.js';
import type { User } from './schemas/users.js';

// The type assertions are checked by `npm run typecheck`; the runtime ones by vitest.

const accountFields = {
  ...keyOrderFields,
  user: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  auth_type: field.enum(AuthType, { filter: 'key' }),
  interval: field.number(),
  last_run: field.shown<{ at: number } | null>(),
} as const satisfies ListFields;

describe('one row declaration', () => {
  it('gives the API row every declared field, with enum value types from the enum', () => {
    expectTypeOf<RowOf<typeof accountFields>>().toEqualTypeOf<{
      id: number;
      created_at: number;
      user: string;
      auth_type: 1 | 2;
      interval: number;
      last_run: { at: number } | null;
    }>();
  });

  it('gives the stored shape the same fields plus what only storage keeps', () => {
    type Stored = StoredOf<typeof accountFields, { pwd_enc: string }>;
    expectTypeOf<Stored>().toHaveProperty('pwd_enc').toEqualTypeOf<string>();
    expectTypeOf<Stored>().toHaveProperty('interval').toEqualTypeOf<number>();
    expectTypeOf<Stored['updated_at']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RowOf<typeof accountFields>>().not.toHaveProperty('pwd_enc');
  });

  it('keeps what only storage keeps out of the API rows', () => {
    expectTypeOf<SiteAccount>().not.toHaveProperty('pwd_enc');
    expectTypeOf<User>().not.toHaveProperty('password_hash');
    expectTypeOf<User>().not.toHaveProperty('token_version');
    expectTypeOf<Notification>().not.toHaveProperty('from_user_id');
  });

  it('lets no list sort, filter or search a shown-only field, refusing it like an unknown one', () => {
    const refusal = (params: Record<string, string>) => {
      try {
        parseListQuery(params, accountFields);
      } catch (error) {
        if (error instanceof ListQueryError) return error.message;
        throw error;
      }
      return 'accepted';
    };
    expect(refusal({ sort: '{"interval":"asc"}' })).toBe('cannot sort by interval');
    expect(refusal({ sort: '{"nope":"asc"}' })).toBe('cannot sort by nope');
    expect(refusal({ interval: '=-3' })).toBe('cannot filter by interval');
    expect(refusal({ keyword: 'abc', keywordField: 'last_run' })).toBe('cannot search last_run');
    expect(refusal({ sort: '{"user":"asc"}', auth_type: '1' })).toBe('accepted');
  });
});
