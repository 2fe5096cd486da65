import { z } from 'zod';

// The followUp queue's message (functions/lib/db/handOff.ts sends it, followUpApplier reads it): the
// key of a row whose follow-ups a writer handed off. Only a key: the steps stay on the row, so a
// message carries no data that could be stale or must not reach a log.

const KeyPart = z.string().min(1).max(1024);

export const FollowUpMessage = z.object({ pk: KeyPart, sk: KeyPart });
export type FollowUpMessage = z.infer<typeof FollowUpMessage>;
