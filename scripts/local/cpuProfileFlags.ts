/**
 * Node flags that make a child process of the local stack write its own CPU profile into the
 * directory an environment variable names (a bench's attribution: `PATROL_DYNALITE_CPU_PROF`,
 * `PATROL_CONSUMER_CPU_PROF`), written as the child exits; none when the variable is unset.
 */
export function cpuProfileFlags(variable: string): string[] {
  const dir = process.env[variable];
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}
