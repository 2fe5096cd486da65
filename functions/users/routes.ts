import { listQueryOf } from '../lib/http/listQueryOf.js';
import { NewUserBody, SetPasswordBody, UpdateUserBody, userFields } from '../../shared/schemas/users.js';
import { listReply } from '../lib/http/listReply.js';
import { Router } from '../lib/http/router.js';
import { clientIp } from '../auth/clientIp.js';
import { createUser, listUsers, setUserPassword, updateUser } from './service.js';

/** User management of the super area (spec: /super/users, /super/users/{id}/pwd). */
export const superUsersRouter = new Router()
  .get('/super/users', async (req) => listReply(req, await listUsers(listQueryOf(req, userFields))), {
    list: userFields,
    access: 'super',
  })
  .post('/super/users', ({ body }) => createUser(body), { access: 'super', body: NewUserBody })
  .put('/super/users/:id', ({ user, params, body }) => updateUser(user, params.id, body), {
    access: 'super',
    body: UpdateUserBody,
  })
  .put(
    '/super/users/:id/pwd',
    (req) => setUserPassword(req.params.id, req.body.pwd, { id: req.user.id, client_ip: clientIp(req) }),
    {
      access: 'super',
      body: SetPasswordBody,
    },
  );
