import { OperationAction, OperationName } from '../../shared/enums.js';
import { listQueryOf } from '../lib/http/listQueryOf.js';
import {
  ActionBody,
  BatchCheckBody,
  LOG_KINDS,
  type LogKind,
  SiteCheckBody,
  betUploadListFields,
  checkLogListFields,
  engineEventListFields,
  operationListFields,
  rawLogListFields,
  subtaskListFields,
  taskListFields,
  videoListFields,
} from '../../shared/schemas/checks.js';
import { NotFoundError } from '../lib/errors.js';
import { listReply } from '../lib/http/listReply.js';
import { Router } from '../lib/http/router.js';
import { pauseOperation, pauseTask, resumeOperation, resumeTask } from './pauseResume.js';
import * as read from './read.js';
import { startCheck } from './start.js';

export const checksRouter = new Router()
  // Starting checks
  .post(
    '/sites/:id/check',
    async (req) =>
      read.getOperation(
        (
          await startCheck({
            siteIds: [req.params.id],
            points: req.body.points,
            name: OperationName.values.SingleSite,
            operatorId: req.user.id,
          })
        ).id,
      ),
    { body: SiteCheckBody },
  )
  .post(
    '/sites/check',
    async (req) =>
      read.getOperation(
        (
          await startCheck({
            siteIds: req.body.sites,
            points: req.body.points,
            name: OperationName.values.MultiSites,
            operatorId: req.user.id,
          })
        ).id,
      ),
    { body: BatchCheckBody },
  )
  // Operations
  .get('/operations', async (req) => listReply(req, await read.listOperations(listQueryOf(req, operationListFields))), {
    list: operationListFields,
  })
  .get(
    '/operations/records',
    async (req) => listReply(req, await read.listEngineEvents(listQueryOf(req, engineEventListFields))),
    { list: engineEventListFields },
  )
  .get('/operations/:id', (req) => read.getOperation(req.params.id))
  .get('/operations/:id/tasks', (req) => read.operationTasks(req.params.id))
  .post(
    '/operations/:id/action',
    async (req) => {
      const op = await read.getOperationRow(req.params.id);
      const changed =
        req.body.action === OperationAction.values.Pause ? await pauseOperation(op) : await resumeOperation(op);
      return { operation: await read.getOperation(op.id), changed };
    },
    { body: ActionBody },
  )
  // Tasks and subtasks
  .get('/check/tasks', async (req) => listReply(req, await read.listTasks(listQueryOf(req, taskListFields))), {
    list: taskListFields,
  })
  .get('/check/tasks/:id', (req) => read.getTask(req.params.id))
  .post(
    '/check/tasks/:id/action',
    async (req) => {
      const task = await read.getTaskRow(req.params.id);
      const changed = req.body.action === OperationAction.values.Pause ? await pauseTask(task) : await resumeTask(task);
      return { task: await read.getTask(task.id), changed };
    },
    { body: ActionBody },
  )
  .get('/check/subtasks', async (req) => listReply(req, await read.listSubtasks(listQueryOf(req, subtaskListFields))), {
    list: subtaskListFields,
  })
  .get('/check/subtasks/:id/check-results', (req) => read.subtaskCheckResults(req.params.id))
  .get('/check/subtasks/:id/attempts', (req) => read.subtaskAttempts(req.params.id))
  .get('/check/subtasks/:id/evidence', (req) => read.subtaskEvidence(req.params.id))
  .get('/check/subtasks/:id/compare', (req) => read.compareWithLastPass(req.params.id))
  // Check logs of the eight processes, and the bets that place-bet checks uploaded
  .get(
    '/check/results/bet-upload',
    async (req) => listReply(req, await read.listBetUploads(listQueryOf(req, betUploadListFields))),
    { list: betUploadListFields },
  )
  .get(
    '/check/results/*kind',
    async (req) => {
      const kind = req.params.kind as LogKind;
      if (!Object.hasOwn(LOG_KINDS, kind)) throw new NotFoundError(`No such log list: ${req.params.kind}`);
      return listReply(req, await read.listCheckLogs(LOG_KINDS[kind], listQueryOf(req, checkLogListFields)));
    },
    { list: checkLogListFields },
  )
  // Browser history
  .get('/raw/logs', async (req) => listReply(req, await read.listRawLogs(listQueryOf(req, rawLogListFields))), {
    list: rawLogListFields,
  })
  .get('/raw/logs/business/:id', (req) => read.rawLogByBusiness(req.params.id))
  .get('/raw/logs/:id', (req) => read.getRawLog(req.params.id))
  .get('/raw/videos', async (req) => listReply(req, await read.listVideos(listQueryOf(req, videoListFields))), {
    list: videoListFields,
  });
