/**
 * Whether a DynamoDB command reads (its consumed units are read units). The client's middleware
 * sees the document client's commands (GetCommand) or the plain ones beneath them (GetItemCommand),
 * depending on the step: match both.
 */
export const isReadCommand = (command = '') => /^(Get|BatchGet|TransactGet|Query|Scan)/.test(command);
