// Reading the gateway's Prometheus page as a client (a scraper) does.

export const metricsText = async (url: string): Promise<string> => (await fetch(`${url}/metrics`)).text();

/** The value of one series, written as on the page (`name{label="v",...}`); 0 when absent. */
export const seriesValue = (text: string, series: string): number => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
