import { CLUSTER_SIMILARITY, type Clustering } from "./butina-clusters.ts";
import { anchorId, escapeHtml } from "./format.ts";

/** Clusters listed with their members (the rest are counted); members listed per cluster. */
const CLUSTERS_LISTED = 40;
const MEMBERS_LISTED = 12;

/** The portfolio's series: each Butina cluster with its members and its best-ranked compound. */
export function renderClusterSection(
  clustering: Clustering | null,
  ids: ReadonlyMap<number, string>,
  carded: ReadonlySet<string>,
  clustered: number,
  total: number,
): string {
  if (clustering === null)
    return `<h2 id="clusters">Series</h2><p>Not clustered: RDKit was not available when the report was composed.</p>`;
  const link = (rank: number) => {
    const id = ids.get(rank) ?? String(rank);
    const label = `${escapeHtml(id)} (#${rank})`;
    return carded.has(id) ? `<a href="#${anchorId("card", id)}">${label}</a>` : label;
  };
  const series = clustering.clusters.filter((cluster) => cluster.members.length > 1);
  const singletons = clustering.clusters.length - series.length;
  const rows = series
    .slice(0, CLUSTERS_LISTED)
    .map(
      (cluster) =>
        `<tr><td>${cluster.id}</td><td>${cluster.members.length}</td><td>${link(cluster.members[0] as number)}</td><td>${cluster.members
          .slice(0, MEMBERS_LISTED)
          .map(link)
          .join(
            ", ",
          )}${cluster.members.length > MEMBERS_LISTED ? ` … and ${cluster.members.length - MEMBERS_LISTED} more (Cluster column of the table)` : ""}</td></tr>`,
    )
    .join("");
  const scope =
    clustered < total
      ? `the ${clustered} highest-ranked of ${total} compounds (clustering is quadratic; the rest have no cluster)`
      : `all ${total} compounds that parse`;
  return `<h2 id="clusters">Series</h2>
<p>Butina clustering (Butina 1999) of ${scope} on Morgan fingerprints (radius 2, 2,048 bits), neighbours at Tanimoto ≥ ${CLUSTER_SIMILARITY} (distance ≤ ${1 - CLUSTER_SIMILARITY}): ${clustering.clusters.length} clusters, ${series.length} with more than one member and ${singletons} singletons. The best compound of a cluster is its highest-ranked member; the table's Cluster column and each card's "Similar compounds" panel place every compound.</p>
${series.length ? `<table class="clusters"><thead><tr><th>Cluster</th><th>Size</th><th>Best compound</th><th>Members (rank)</th></tr></thead><tbody>${rows}</tbody></table>${series.length > CLUSTERS_LISTED ? `<p>${series.length - CLUSTERS_LISTED} more multi-member clusters are in the table's Cluster column and report.csv.</p>` : ""}` : "<p>No two compounds are that similar: every cluster is a singleton.</p>"}`;
}
