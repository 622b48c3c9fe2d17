/** What this converter knows of `docker run`'s flags and Compose's service keys, and how they map onto each other. */

export type Shape = 'string' | 'int' | 'number' | 'bool' | 'list' | 'map' | 'env'

/**
 * The `docker run` flags that map one to one onto a Compose service key (Docker's `docker container
 * run` reference; the Compose Specification, services). The first spelling is the one composeToRun
 * writes. `env` is a map whose `KEY` alone means "take it from the environment" (null in Compose).
 */
export const SIMPLE: ReadonlyArray<{ flags: readonly string[]; key: string; shape: Shape }> = [
  { flags: ['--name'], key: 'container_name', shape: 'string' },
  { flags: ['-p', '--publish'], key: 'ports', shape: 'list' },
  { flags: ['--expose'], key: 'expose', shape: 'list' },
  { flags: ['-e', '--env'], key: 'environment', shape: 'env' },
  { flags: ['--env-file'], key: 'env_file', shape: 'list' },
  { flags: ['--tmpfs'], key: 'tmpfs', shape: 'list' },
  { flags: ['--volumes-from'], key: 'volumes_from', shape: 'list' },
  { flags: ['--restart'], key: 'restart', shape: 'string' },
  { flags: ['-i', '--interactive'], key: 'stdin_open', shape: 'bool' },
  { flags: ['-t', '--tty'], key: 'tty', shape: 'bool' },
  { flags: ['-w', '--workdir'], key: 'working_dir', shape: 'string' },
  { flags: ['-u', '--user'], key: 'user', shape: 'string' },
  { flags: ['-h', '--hostname'], key: 'hostname', shape: 'string' },
  { flags: ['--domainname'], key: 'domainname', shape: 'string' },
  { flags: ['--add-host'], key: 'extra_hosts', shape: 'list' },
  { flags: ['--dns'], key: 'dns', shape: 'list' },
  { flags: ['--dns-search'], key: 'dns_search', shape: 'list' },
  { flags: ['--dns-option', '--dns-opt'], key: 'dns_opt', shape: 'list' },
  { flags: ['--mac-address'], key: 'mac_address', shape: 'string' },
  { flags: ['--cap-add'], key: 'cap_add', shape: 'list' },
  { flags: ['--cap-drop'], key: 'cap_drop', shape: 'list' },
  { flags: ['--privileged'], key: 'privileged', shape: 'bool' },
  { flags: ['--security-opt'], key: 'security_opt', shape: 'list' },
  { flags: ['--device'], key: 'devices', shape: 'list' },
  { flags: ['--device-cgroup-rule'], key: 'device_cgroup_rules', shape: 'list' },
  { flags: ['--sysctl'], key: 'sysctls', shape: 'map' },
  { flags: ['-m', '--memory'], key: 'mem_limit', shape: 'string' },
  { flags: ['--memory-reservation'], key: 'mem_reservation', shape: 'string' },
  { flags: ['--memory-swap'], key: 'memswap_limit', shape: 'string' },
  { flags: ['--memory-swappiness'], key: 'mem_swappiness', shape: 'int' },
  { flags: ['--cpus'], key: 'cpus', shape: 'number' },
  { flags: ['--cpu-shares', '-c'], key: 'cpu_shares', shape: 'int' },
  { flags: ['--cpuset-cpus'], key: 'cpuset', shape: 'string' },
  { flags: ['--cpu-count'], key: 'cpu_count', shape: 'int' },
  { flags: ['--cpu-percent'], key: 'cpu_percent', shape: 'int' },
  { flags: ['--cpu-period'], key: 'cpu_period', shape: 'int' },
  { flags: ['--cpu-quota'], key: 'cpu_quota', shape: 'int' },
  { flags: ['--cpu-rt-period'], key: 'cpu_rt_period', shape: 'int' },
  { flags: ['--cpu-rt-runtime'], key: 'cpu_rt_runtime', shape: 'int' },
  { flags: ['--pids-limit'], key: 'pids_limit', shape: 'int' },
  { flags: ['--shm-size'], key: 'shm_size', shape: 'string' },
  { flags: ['--oom-kill-disable'], key: 'oom_kill_disable', shape: 'bool' },
  { flags: ['--oom-score-adj'], key: 'oom_score_adj', shape: 'int' },
  { flags: ['-l', '--label'], key: 'labels', shape: 'map' },
  { flags: ['--label-file'], key: 'label_file', shape: 'list' },
  { flags: ['--annotation'], key: 'annotations', shape: 'map' },
  { flags: ['--stop-signal'], key: 'stop_signal', shape: 'string' },
  { flags: ['--init'], key: 'init', shape: 'bool' },
  { flags: ['--read-only'], key: 'read_only', shape: 'bool' },
  { flags: ['--platform'], key: 'platform', shape: 'string' },
  { flags: ['--pull'], key: 'pull_policy', shape: 'string' },
  { flags: ['--pid'], key: 'pid', shape: 'string' },
  { flags: ['--ipc'], key: 'ipc', shape: 'string' },
  { flags: ['--uts'], key: 'uts', shape: 'string' },
  { flags: ['--userns'], key: 'userns_mode', shape: 'string' },
  { flags: ['--cgroupns'], key: 'cgroup', shape: 'string' },
  { flags: ['--cgroup-parent'], key: 'cgroup_parent', shape: 'string' },
  { flags: ['--group-add'], key: 'group_add', shape: 'list' },
  { flags: ['--runtime'], key: 'runtime', shape: 'string' },
  { flags: ['--isolation'], key: 'isolation', shape: 'string' },
  { flags: ['--storage-opt'], key: 'storage_opt', shape: 'map' },
  { flags: ['--link'], key: 'links', shape: 'list' },
  { flags: ['--use-api-socket'], key: 'use_api_socket', shape: 'bool' },
]

/** Flags this converter reads itself, each into a Compose key or section of its own. */
const SPECIAL_VALUED = [
  '-v',
  '--volume',
  '--mount',
  '--network',
  '--net',
  '--network-alias',
  '--net-alias',
  '--ip',
  '--ip6',
  '--entrypoint',
  '--ulimit',
  '--stop-timeout',
  '--health-cmd',
  '--health-interval',
  '--health-timeout',
  '--health-retries',
  '--health-start-period',
  '--health-start-interval',
  '--log-driver',
  '--log-opt',
  '--blkio-weight',
  '--blkio-weight-device',
  '--device-read-bps',
  '--device-read-iops',
  '--device-write-bps',
  '--device-write-iops',
  '--link-local-ip',
  '--gpus',
] as const
const SPECIAL_BOOLEAN = ['--no-healthcheck'] as const

/** Accepted `docker run` flags that change how the CLI runs the container, not the container: no Compose form. */
export const IGNORED: Record<string, { valued: boolean; reason: string }> = {
  '-d': { valued: false, reason: 'docker compose up -d detaches; a service is not started in the foreground by its definition' },
  '--detach': { valued: false, reason: 'docker compose up -d detaches; a service is not started in the foreground by its definition' },
  '--rm': { valued: false, reason: 'Compose keeps a service’s container until docker compose down removes it' },
  '-a': { valued: true, reason: 'docker compose attaches to every stream of the services it runs in the foreground' },
  '--attach': { valued: true, reason: 'docker compose attaches to every stream of the services it runs in the foreground' },
  '--sig-proxy': { valued: false, reason: 'docker compose forwards signals itself' },
  '--cidfile': { valued: true, reason: 'Compose writes no container ID file' },
  '--detach-keys': { valued: true, reason: 'a setting of the attached client (docker attach), not of the service' },
  '-q': { valued: false, reason: 'docker compose pull --quiet silences pulls' },
  '--quiet': { valued: false, reason: 'docker compose pull --quiet silences pulls' },
  '--disable-content-trust': { valued: false, reason: 'content trust is a setting of the Docker client (DOCKER_CONTENT_TRUST)' },
  '-P': { valued: false, reason: 'Compose has no "publish every exposed port"; list the ports under ports' },
  '--publish-all': { valued: false, reason: 'Compose has no "publish every exposed port"; list the ports under ports' },
}

/** `docker run` flags that Compose has no key for: refused by name, since dropping them would change the container. */
export const WITHOUT_COMPOSE_FORM = new Set(['--cpuset-mems', '--volume-driver', '--io-maxbandwidth', '--io-maxiops', '--kernel-memory', '--help'])

/** One row of SIMPLE: a flag and the Compose key it maps onto. */
export type SimpleEntry = (typeof SIMPLE)[number]

export const SIMPLE_BY_FLAG = new Map(SIMPLE.flatMap((entry) => entry.flags.map((flag) => [flag, entry] as const)))
export const SIMPLE_BY_KEY = new Map(SIMPLE.map((entry) => [entry.key, entry]))
export const VALUED = new Set<string>([
  ...SIMPLE.filter((entry) => entry.shape !== 'bool').flatMap((entry) => entry.flags),
  ...SPECIAL_VALUED,
  ...Object.entries(IGNORED)
    .filter(([, flag]) => flag.valued)
    .map(([name]) => name),
])
export const KNOWN = new Set<string>([...SIMPLE.flatMap((entry) => entry.flags), ...SPECIAL_VALUED, ...SPECIAL_BOOLEAN, ...Object.keys(IGNORED)])

export const BLKIO_DEVICE_FLAGS: Record<string, string> = {
  weight_device: '--blkio-weight-device',
  device_read_bps: '--device-read-bps',
  device_read_iops: '--device-read-iops',
  device_write_bps: '--device-write-bps',
  device_write_iops: '--device-write-iops',
}

/** Compose keys with no `docker run` form, and why. */
export const KEYS_WITHOUT_RUN_FORM: Record<string, string> = {
  build: 'docker run runs an image; build it first with docker build',
  depends_on: 'docker run starts one container; start the ones it depends on first',
  deploy: 'replicas, placement and update settings belong to docker compose and Swarm; for resources, use mem_limit and cpus',
  profiles: 'profiles choose which services docker compose starts',
  secrets: 'Compose mounts secrets from its own top-level definitions; use a bind mount (-v) of the file instead',
  configs: 'Compose mounts configs from its own top-level definitions; use a bind mount (-v) of the file instead',
  develop: 'file watching is a feature of docker compose watch',
  extends: 'extends merges another service definition when Compose reads the file',
  scale: 'docker run starts one container',
  attach: 'docker compose up attaches to the service’s output; docker run does unless -d is given',
  post_start: 'lifecycle hooks are run by docker compose',
  pre_stop: 'lifecycle hooks are run by docker compose',
  external_links: 'use --link or a shared network',
  models: 'models are provided by docker compose',
  provider: 'providers are run by docker compose',
  credential_spec: 'use --security-opt credentialspec=… on Windows',
  pull_refresh_after: 'a pull policy of docker compose',
}
