import type { ContainerManifest, VolumeManifest } from "./kube-gateway.ts";

// Pod Security Standard "restricted" (https://kubernetes.io/docs/concepts/security/pod-security-standards/):
// non-root, no privilege escalation, all capabilities dropped, RuntimeDefault seccomp. The root
// filesystem is read-only too; the runner gets a scratch /tmp.

/** Pod-level securityContext of every Job the service creates. */
export function restrictedPodSecurityContext(uid: number, withFsGroup: boolean): Record<string, unknown> {
  return {
    runAsNonRoot: true,
    runAsUser: uid,
    runAsGroup: uid,
    // fsGroup makes the data claim writable for the non-root runner.
    ...(withFsGroup ? { fsGroup: uid } : {}),
    seccompProfile: { type: "RuntimeDefault" },
  };
}

/** Container-level securityContext of every Job container. */
export function restrictedContainerSecurityContext(): NonNullable<ContainerManifest["securityContext"]> {
  return {
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    runAsNonRoot: true,
    capabilities: { drop: ["ALL"] },
  };
}

/** The scratch volume behind the read-only root filesystem. */
export const TMP_VOLUME: VolumeManifest = { name: "tmp", emptyDir: { sizeLimit: "1Gi" } };
export const TMP_MOUNT = { name: "tmp", mountPath: "/tmp" };
