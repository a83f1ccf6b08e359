// Per-request loggers made lazily: the request-bound child logger is built only when something is logged.
//
// Fastify builds a pino child logger (with the request id bound) for every request. At the usual
// levels most requests log nothing, and the child costs more than the rest of a cached read;
// this stand-in defers it to the first line that is actually written.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = [unknown, ...unknown[]];

class LazyRequestLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.parent as unknown as LevelAware).isLevelEnabled(level);
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }
  error(...args: LogArgs): void {
    this.write('error', args);
  }
  warn(...args: LogArgs): void {
    this.write('warn', args);
  }
  info(...args: LogArgs): void {
    this.write('info', args);
  }
  debug(...args: LogArgs): void {
    this.write('debug', args);
  }
  trace(...args: LogArgs): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  private write(level: Level, args: LogArgs): void {
    if (!this.isLevelEnabled(level)) return;
    (this.logger()[level] as (...rest: unknown[]) => void)(...args);
  }

  private logger(): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindings, this.options);
    return this.real;
  }
}

interface LevelAware {
  isLevelEnabled(level: string): boolean;
}

/** Fastify's childLoggerFactory option; a logger that cannot tell its levels (logging off) gets a plain child. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (typeof (logger as unknown as Partial<LevelAware>).isLevelEnabled !== 'function')
    return logger.child(bindings, options);
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
