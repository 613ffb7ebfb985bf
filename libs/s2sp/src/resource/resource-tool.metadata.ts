/** Metadata key under which @S2spResourceTool keeps its options on the method. */
export const S2SP_RESOURCE_TOOL = 's2sp:resource-tool';
