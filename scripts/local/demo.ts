/**
 * Demo data for a new local store (DEMO != '0'): each entry adds one area's sample rows
 * through the features' own services. Run in order, after the admin user exists, and only
 * on an empty store so that a restart never duplicates them.
 */
export const demoSeeds: Array<() => Promise<void>> = [];
