/** Whether a database URL names a PostgreSQL server (`postgresql://` or `postgres://`). */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}
