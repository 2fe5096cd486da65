import { parseListQuery } from '../../shared/listQuery.js';
import { NewUserBody, SetPasswordBody, userFields } from '../../shared/schemas/users.js';
import { Router } from '../lib/http/router.js';
import { clientIp } from '../auth/clientIp.js';
import { createUser, listUsers, setUserPassword } from './service.js';

/** User management of the super area (spec: /super/users, /super/users/{id}/pwd). */
export const superUsersRouter = new Router()
  .get('/super/users', ({ query }) => listUsers(parseListQuery(query, userFields)), { access: 'super' })
  .post('/super/users', ({ body }) => createUser(body), { access: 'super', body: NewUserBody })
  .put(
    '/super/users/:id/pwd',
    (req) => setUserPassword(Number(req.params.id), req.body.pwd, { id: req.user.id, client_ip: clientIp(req) }),
    {
      access: 'super',
      body: SetPasswordBody,
    },
  );
