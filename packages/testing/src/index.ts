export { findFreePort, startTestPostgres, type TestPostgres } from "./postgres/test-postgres.ts";
