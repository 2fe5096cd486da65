export { REVEAL_SHOWN_MS, SECRET_MASK, SecretCell, type SecretCellProps } from './SecretCell';
