// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is Compose's interpolation syntax, written in plain strings on purpose
import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { YAML_OFFLOAD_THRESHOLD } from '../../lib/yaml/yaml-to-json.ts'
import { composeToRun } from './compose-to-run.ts'
import { IGNORED, KEYS_WITHOUT_RUN_FORM } from './flag-table.ts'
import { runToCompose } from './run-to-compose.ts'

const ACTIONS = ['runToCompose', 'composeToRun'] as const
const MAX_INPUT = 65_536
/** A `docker run` command is split in one linear pass; past this size it still runs on a worker thread. */
const RUN_OFFLOAD_THRESHOLD = 16_384
const NAME_PATTERN = '^[a-z0-9][a-z0-9_-]*$'

const RUN_DEFAULTS = { indent: 2 } as const
const COMPOSE_DEFAULTS = { multiline: true } as const

export const dockerCompose = defineOperation({
  name: 'docker-compose',
  category: 'converters',
  summary: 'Convert a docker run command to a Compose service, and a Compose service to a docker run command',
  title: 'docker run and Compose',
  labels: { choices: { action: { runToCompose: 'docker run → Compose', composeToRun: 'Compose → docker run' } } },
  aliases: [
    'docker run to compose',
    'compose to docker run',
    'docker compose',
    'docker-compose.yml',
    'compose.yaml',
    'composerize',
    'decomposerize',
    'docker run command',
    'container',
    'compose file',
    'compose service',
  ],
  description:
    '`runToCompose` (the default) reads one `docker run` (or `docker container run`, optionally after `sudo`) command and writes it as a Compose file of one service, following the Compose Specification’s service keys and Docker’s `docker container run` reference. ' +
    'The command is split into words as POSIX sh does (single and double quotes, backslashes, backslash-newline continuations) but nothing is run or expanded: `$VAR` and `${VAR}` outside single quotes become Compose’s `${VAR}`, interpolated when Compose reads the file as your shell would have expanded them (a warning lists them), and a literal `$` (in single quotes, or escaped) is written `$$`. ' +
    'Shell operators (`;`, `|`, `&&`, `>`, `<`), command substitutions (`$(…)`, backquotes), a second command, a command with no image and a flag this converter does not know are refused (422) with their position; a bad value is refused naming its flag, never echoing the value, since values may be secrets. ' +
    'The service is named by `serviceName`, else by `--name`, else by the image’s last path segment. Ports and exposed ports are always quoted strings (YAML 1.1 reads 22:22 as a base-60 number); `--stop-timeout 90` becomes `stop_grace_period: 1m30s`; a named volume is declared at the top level with its own name (so Compose uses the same volume as docker run, not one prefixed by the project name); a user-defined network is declared `external: true`; `--network-alias`, `--ip` and `--ip6` apply to the first user-defined network. ' +
    'A value repeated in a list flag is written once, as Compose lists require; a single-valued flag given twice keeps its last value, as Docker does. ' +
    '`-d`, `--rm`, `-a`, `--sig-proxy`, `--cidfile`, `--detach-keys`, `-q`, `--disable-content-trust` and `-P` are accepted and listed in `ignored` with the reason they have no Compose form. ' +
    '`composeToRun` reads a Compose file (YAML 1.2; more than 100 levels of nesting, an alias expanding past the output limit or a repeated key is a 422 with the line) and writes the `docker run` command of one service (`service`, needed when the file has several). Values are single-quoted for the shell where needed; a Compose `${VAR}` is left in double quotes for your shell to expand, with a warning; a command longer than 2 MiB, the arguments Linux lets one command have (ARG_MAX), is a 422 LIMIT_EXCEEDED. ' +
    '`setup` lists the `docker network create` and `docker volume create` commands to run first (external networks and volumes excepted); `ignored` lists keys with no `docker run` form (build, depends_on, deploy, profiles, secrets, configs, develop, extends…) with the reason; an exec-form healthcheck test is written as a shell command, with a warning. ' +
    `Commands over ${RUN_OFFLOAD_THRESHOLD / 1024} KiB and Compose files over ${YAML_OFFLOAD_THRESHOLD / 1024} KiB run on a worker thread. Not served over GET: a command carries secrets (-e PASSWORD=…).`,
  input: Type.Object(
    {
      input: Type.String({
        maxLength: MAX_INPUT,
        writeOnly: true,
        description:
          'runToCompose: one docker run command; backslash-newlines join its lines. composeToRun: a Compose file (YAML). It may hold secrets (-e PASSWORD=…): never logged, never put in a shared link, and errors name flags and positions, never values.',
        examples: ['docker run -d --name web -p 8080:80 nginx:1.27'],
      }),
      action: withDefault(
        Type.Enum(ACTIONS, {
          description: 'Write a docker run command as Compose (`runToCompose`), or a Compose service as a docker run command (`composeToRun`).',
        }),
        'runToCompose',
      ),
      projectName: Type.Optional(
        Type.String({
          pattern: NAME_PATTERN,
          maxLength: 63,
          description: 'runToCompose: the Compose project name, written as the top-level `name`; omitted, the file has none.',
        }),
      ),
      serviceName: Type.Optional(
        Type.String({
          pattern: NAME_PATTERN,
          maxLength: 63,
          description: 'runToCompose: the service’s name; omitted, it is taken from --name, else from the image’s last path segment without its tag.',
        }),
      ),
      indent: withDefault(
        Type.Integer({ minimum: 1, maximum: 8, description: 'runToCompose: spaces per indentation level of the YAML, 1 to 8.' }),
        RUN_DEFAULTS.indent,
      ),
      service: Type.Optional(
        Type.String({ minLength: 1, maxLength: 1000, description: 'composeToRun: the service to convert; needed when the file defines more than one.' }),
      ),
      multiline: withDefault(
        Type.Boolean({ description: 'composeToRun: write each flag on a line of its own, lines joined by a backslash-newline; false writes one line.' }),
        COMPOSE_DEFAULTS.multiline,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'runToCompose: the Compose file (YAML). composeToRun: the docker run command.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    service: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'runToCompose: the service, as a JSON object.' })),
    setup: Type.Optional(
      Type.Array(Type.String(), {
        description: 'composeToRun: the commands to run before the docker run command (docker network create, docker volume create).',
      }),
    ),
    ignored: Type.Array(
      Type.Object({
        flag: Type.Optional(Type.String({ description: 'runToCompose: the docker run flag.' })),
        key: Type.Optional(Type.String({ description: 'composeToRun: the Compose key.' })),
        reason: Type.String({ description: 'Why it has no equivalent.' }),
      }),
      { description: 'What was accepted but has no equivalent on the other side, each with the reason.' },
    ),
    warnings: Type.Array(Type.String(), {
      description: 'What the reader should check: variables left to interpolate, healthchecks rewritten, values rounded.',
    }),
  }),
  actions: {
    runToCompose: { fields: ['input', 'projectName', 'serviceName', 'indent'] },
    composeToRun: { fields: ['input', 'service', 'multiline'] },
  },
  examples: [
    {
      summary: 'A docker run command as a Compose service',
      input: { input: 'docker run -d --name web -p 8080:80 -e TZ=Europe/Paris -v html:/usr/share/nginx/html:ro --restart unless-stopped nginx:1.27' },
      output: {
        result:
          'services:\n  web:\n    image: nginx:1.27\n    container_name: web\n    ports:\n      - "8080:80"\n    environment:\n      TZ: Europe/Paris\n    volumes:\n      - html:/usr/share/nginx/html:ro\n    restart: unless-stopped\nvolumes:\n  html:\n    name: html\n',
        action: 'runToCompose',
        service: {
          image: 'nginx:1.27',
          container_name: 'web',
          ports: ['8080:80'],
          environment: { TZ: 'Europe/Paris' },
          volumes: ['html:/usr/share/nginx/html:ro'],
          restart: 'unless-stopped',
        },
        ignored: [{ flag: '-d', reason: IGNORED['-d'].reason }],
        warnings: [],
      },
    },
    {
      summary: 'Healthcheck, ulimits and a stop timeout; a variable left for Compose',
      input: {
        input:
          'docker run --health-cmd \'pg_isready -U postgres\' --health-interval 10s --ulimit nofile=20000:40000 --stop-timeout 90 \\\n  -e POSTGRES_PASSWORD="$PGPASS" postgres:17 -c max_connections=200',
        projectName: 'db',
      },
      output: {
        result:
          'name: db\nservices:\n  postgres:\n    image: postgres:17\n    healthcheck:\n      test: pg_isready -U postgres\n      interval: 10s\n    ulimits:\n      nofile:\n        soft: 20000\n        hard: 40000\n    stop_grace_period: 1m30s\n    environment:\n      POSTGRES_PASSWORD: ${PGPASS}\n    command:\n      - -c\n      - max_connections=200\n',
        action: 'runToCompose',
        service: {
          image: 'postgres:17',
          healthcheck: { test: 'pg_isready -U postgres', interval: '10s' },
          ulimits: { nofile: { soft: 20000, hard: 40000 } },
          stop_grace_period: '1m30s',
          environment: { POSTGRES_PASSWORD: '${PGPASS}' },
          command: ['-c', 'max_connections=200'],
        },
        ignored: [],
        warnings: ['Compose interpolates ${PGPASS} when it reads the file (from the environment or an .env file), as your shell would have expanded it'],
      },
    },
    {
      summary: 'A Compose service as a docker run command',
      input: {
        input:
          'services:\n  api:\n    image: ghcr.io/acme/api:2\n    ports: ["127.0.0.1:8001:8001"]\n    environment:\n      GREETING: "it\'s $$5"\n    networks: [backend]\n    depends_on: [db]\nnetworks:\n  backend: {}\n',
        action: 'composeToRun',
      },
      output: {
        result: "docker run \\\n  -p 127.0.0.1:8001:8001 \\\n  -e 'GREETING=it'\\''s $5' \\\n  --network backend \\\n  ghcr.io/acme/api:2",
        action: 'composeToRun',
        setup: ['docker network create backend'],
        ignored: [{ key: 'depends_on', reason: KEYS_WITHOUT_RUN_FORM.depends_on }],
        warnings: [],
      },
    },
  ],
  offload: ({ input, action }) => input.length > (action === 'composeToRun' ? YAML_OFFLOAD_THRESHOLD : RUN_OFFLOAD_THRESHOLD),
  runsInBrowser: true,
  run({ input, action, projectName, serviceName, indent, service, multiline }) {
    if (action === 'runToCompose') {
      if (service !== undefined) throw validationError('service', 'is for composeToRun only')
      if (multiline !== COMPOSE_DEFAULTS.multiline) throw validationError('multiline', 'is for composeToRun only')
      return runToCompose(input, { projectName, serviceName, indent })
    }
    if (projectName !== undefined) throw validationError('projectName', 'is for runToCompose only')
    if (serviceName !== undefined) throw validationError('serviceName', 'is for runToCompose only')
    if (indent !== RUN_DEFAULTS.indent) throw validationError('indent', 'is for runToCompose only')
    return composeToRun(input, service, multiline)
  },
})
