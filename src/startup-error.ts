/**
 * A start-up failure the operator can act on (database unreachable or refusing our login, port in
 * use, a locked data directory): its message is the whole story, so the CLI prints it as one line,
 * without a stack, and exits non-zero.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
