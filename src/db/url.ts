/** Which database a URL names; pure, so the command line can check it without loading a driver. */

/** A `postgres://` or `postgresql://` URL: the workspace database is that PostgreSQL database. */
export const isPostgresUrl = (url: string | undefined): url is string => !!url && /^postgres(ql)?:\/\//.test(url);
