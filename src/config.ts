import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

/** Every setting, read from the environment once at start. Documented in README.md (Configuration). */
const ConfigSchema = z.object({
  PORT: port.default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for the embedded database)')
    .optional(),
  DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier').default('public'),
  CALENDAR_DATA_DIR: z.string().min(1).default('./.data'),
  PUBLIC_SITE_URL: z.url({ protocol: /^https?$/ }).default('https://kalender.example.no/arrangement'),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_EVENTS: z.coerce.number().int().min(0).max(1_000_000).default(2000),
  /** Testing aid: a fixed "now" (ISO 8601) instead of the wall clock. */
  CALENDAR_NOW: z.iso.datetime({ offset: true }).optional(),
});

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const result = ConfigSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** The clock of the service: the wall clock, or the fixed CALENDAR_NOW. */
export function clockFrom(config: Pick<Config, 'CALENDAR_NOW'>): () => Date {
  const fixed = config.CALENDAR_NOW;
  return fixed ? () => new Date(fixed) : () => new Date();
}
