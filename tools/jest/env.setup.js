// Every test process runs in UTC, like the services (the event log stores DateTime64 in UTC).
process.env.TZ = 'UTC';
