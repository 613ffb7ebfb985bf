/** Metadata key under which @S2spConsumerTool keeps its options on the method. */
export const S2SP_CONSUMER_TOOL = 's2sp:consumer-tool';
