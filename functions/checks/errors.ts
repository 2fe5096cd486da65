import { ErrorCode } from '../../shared/errors.js';
import { NotFoundError } from '../lib/errors.js';

export class OperationNotFoundError extends NotFoundError {
  override name = 'OperationNotFoundError';
  override code: number = ErrorCode.OperationNotFound;
}
export class TaskNotFoundError extends NotFoundError {
  override name = 'TaskNotFoundError';
  override code: number = ErrorCode.TaskNotFound;
}
export class RawLogNotFoundError extends NotFoundError {
  override name = 'RawLogNotFoundError';
  override code: number = ErrorCode.RawLogNotFound;
}
export class SubtaskNotFoundError extends NotFoundError {
  override name = 'SubtaskNotFoundError';
  override code: number = ErrorCode.SubtaskNotFound;
}
