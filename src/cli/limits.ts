import { InvalidArgumentError, type Command } from 'commander';
import { BrepscopeError } from '../engine/hostFacts';
import { DEFAULT_DEADLINE_MS, DEFAULT_MAX_MEMORY_MB, type EngineLimits } from '../node/EngineHost';

/** Environment variables that set the limits when no flag does (a flag wins). */
export const DEADLINE_ENV = 'BREPSCOPE_DEADLINE';
export const MAX_MEMORY_ENV = 'BREPSCOPE_MAX_MEMORY';

/** The kernel's heap starts at 100 MiB: below this ceiling it could hardly read a file. */
const MIN_MEMORY_MB = 128;

/**
 * A decimal number of seconds, with an exponent if need be: `--deadline 1e4` was refused as "not a
 * number > 0". A deadline past a timer's range is held to it where it is set (timerDelay).
 */
export function positiveSeconds(value: string): number {
  const n = Number(value);
  if (!/^\s*(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i.test(value) || !(n > 0) || !Number.isFinite(n)) throw new InvalidArgumentError('expected a number of seconds > 0 (e.g. 600, 0.5 or 1e4)');
  return n;
}

export function megabytes(value: string): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || n < MIN_MEMORY_MB || n > 4096) throw new InvalidArgumentError(`expected whole MiB from ${MIN_MEMORY_MB} to 4096`);
  return n;
}

/** Adds --deadline and --max-memory to a command that runs the engine. */
export function withLimitOptions(cmd: Command, deadlineScope: string): Command {
  return cmd
    .option('--deadline <seconds>', `stop ${deadlineScope} after this many seconds: TIMEOUT (env ${DEADLINE_ENV}; default ${DEFAULT_DEADLINE_MS / 1000})`, positiveSeconds)
    .option(
      '--max-memory <MiB>',
      `memory ceiling of the engine's kernel heap (and of its JavaScript heap, at least 1024): OUT_OF_MEMORY (env ${MAX_MEMORY_ENV}; default ${DEFAULT_MAX_MEMORY_MB})`,
      megabytes,
    );
}

/** The limits from the flags, else the environment; those given by neither stay at the engine host's defaults. */
export function engineLimits(opts: { deadline?: number; maxMemory?: number }, env: NodeJS.ProcessEnv): EngineLimits {
  const fromEnv = <T>(name: string, parse: (value: string) => T): T | undefined => {
    const value = env[name];
    if (value === undefined || value === '') return undefined;
    try {
      return parse(value);
    } catch (e) {
      throw new BrepscopeError('INVALID_ARGUMENT', `${name}=${value}: ${(e as Error).message}`);
    }
  };
  const deadline = opts.deadline ?? fromEnv(DEADLINE_ENV, positiveSeconds);
  const maxMemoryMb = opts.maxMemory ?? fromEnv(MAX_MEMORY_ENV, megabytes);
  return { ...(deadline === undefined ? {} : { deadlineMs: Math.round(deadline * 1000) }), ...(maxMemoryMb === undefined ? {} : { maxMemoryMb }) };
}
