/** Media type of a data-plane answer encoded as an Arrow IPC stream (see README.md in this folder). */
export const ARROW_STREAM_MEDIA_TYPE = 'application/vnd.apache.arrow.stream';
