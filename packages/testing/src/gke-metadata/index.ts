export {
  type FakeMetadataOptions,
  type FakeMetadataServer,
  type MetadataRequest,
  startFakeMetadataServer,
} from "./fake-metadata-server.ts";
