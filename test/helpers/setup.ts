// Every test process runs in UTC, as the spawned CLI does (cleanEnv): in-process runs read the
// process's zone for "today".
process.env.TZ = 'UTC';
