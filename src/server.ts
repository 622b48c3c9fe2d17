import { loadConfig } from './core/config.ts'
import { buildApp } from './http/app.ts'

const config = loadConfig()
const app = await buildApp({ config })
await app.listen({ port: config.port, host: config.host })
