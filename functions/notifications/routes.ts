import { listQueryOf } from '../lib/http/listQueryOf.js';
import { notificationListFields } from '../../shared/schemas/notifications.js';
import { NotifyInput } from '../../shared/schemas/telegram.js';
import { BadRequestError } from '../lib/errors.js';
import { Router } from '../lib/http/router.js';
import { listReply } from '../lib/http/listReply.js';
import * as service from './service.js';

export const notificationsRouter = new Router()
  .get(
    '/notifications',
    async (req) => listReply(req, await service.listNotifications(listQueryOf(req, notificationListFields))),
    { list: notificationListFields },
  )
  .get('/notifications/web', (req) => {
    const since = Number(req.query.since ?? Date.now() - 60_000);
    if (!Number.isFinite(since)) throw new BadRequestError('since must be a millisecond stamp');
    return service.webNotifications(since);
  })
  .get('/notifications/:id', (req) => service.getNotification(req.params.id))
  .put('/notifications/:id', (req) => service.markRead(req.params.id))
  // SendTG (spec sections 2, 7): channel 2 is the chat channel.
  .post('/notifications/:id/notify', (req) => service.sendNotificationToTelegram(req.params.id), {
    body: NotifyInput,
  });
