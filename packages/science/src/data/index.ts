// @svc/science/data: the package's checked-in method data, read by name.
export { readDataFile } from "./read-data-file.ts";
