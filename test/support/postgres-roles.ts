import type pg from 'pg';

/** `url` logging in as `role` instead, without a password (the local test server trusts 127.0.0.1). */
export function asRole(url: string, role: string): string {
  const parsed = new URL(url);
  parsed.username = role;
  parsed.password = '';
  return parsed.toString();
}

/**
 * Drops roles a test made (roles belong to the whole server, not to a schema): first what they own or were
 * granted in this database (the schema a test dropped already leaves only grants), then the roles.
 */
export async function dropRoles(admin: pg.Client, roles: readonly string[]): Promise<void> {
  for (const role of roles) {
    await admin.query(`drop owned by ${role}`).catch(() => undefined);
    await admin.query(`drop role if exists ${role}`);
  }
}
