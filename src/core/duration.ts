/** A duration as the progress lines and summaries print it: "17 ms", "2.97 s". */
export const formatDuration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`);
