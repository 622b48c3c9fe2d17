/**
 * Finding operations from a question in a user's words ("decode a JWT", "sha256 of a file", "epoch
 * to date"), for MCP's discovery tool and the web app's search box. Pure and free of Node's
 * modules, so that the web app's bundle uses it as it is.
 */

import { editDistance } from '../lib/text/edit-distance.ts'

/** What the ranking reads of an operation. */
export interface Searchable {
  name: string
  /** A human title, e.g. "Base64". */
  title: string
  summary: string
  /** The words users say for it: other names, algorithms, formats, tasks ("epoch", "sha256", "prettify"). */
  aliases: readonly string[]
  /** Any further text worth matching weakly: the description, field names, choices. */
  text?: string
}

export interface SearchHit<T extends Searchable> {
  item: T
  score: number
}

/** Words that say nothing about which operation is meant. */
const STOP_WORDS = new Set(
  'a an the of to from for in into on at by with and or this that these those my me i it its is are be please some any one two me give get make do how what which can you want need use using as'.split(
    ' ',
  ),
)

/** Lower-case words of a text, split at anything that is not a letter or a digit. */
function lowerWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
}

/** Lower-case words of a text without stop words. */
function searchWords(text: string): string[] {
  return lowerWords(text).filter((word) => !STOP_WORDS.has(word))
}

/** A word and its simple plural or singular, so "ids" finds "id" and "hashes" finds "hash". */
function forms(word: string): string[] {
  if (word.length > 4 && word.endsWith('es')) return [word, word.slice(0, -2), word.slice(0, -1)]
  if (word.length > 3 && word.endsWith('s')) return [word, word.slice(0, -1)]
  return [word]
}

const WEIGHT = {
  /** The query is the operation's name, or its title. */
  exactName: 1000,
  /**
   * The query begins the operation's name or its title ("base6" of base64, "regular" of "Regular
   * expression tester"): what someone typing a name into a launcher has so far. Added to the rest
   * of the score, it outweighs any sum the words of a name can reach otherwise, so that a name being
   * typed ranks above the operations that merely mention it.
   */
  namePrefix: 500,
  /** The query holds the operation's name ("qr code") or one of its aliases of several words ("pretty print"). */
  phrase: 40,
  /** A word of the query is the name, or one of its parts ("yaml" of yaml-json). */
  namePart: 30,
  /** A word of the query is one of the aliases of one word. */
  alias: 30,
  /**
   * A word of the query is one of the aliases of one word, but a common one (see `COMMON_SAYERS`)
   * beside other words, none of which points at the operation: "decode" alone is base64's, "hex
   * decode" is hex-text's. It still ranks the operation above those whose summaries only say the word.
   */
  commonAlias: 9,
  /** A word of the query is in the title, the summary, or an alias of several words. */
  summary: 8,
  /** A word of the query begins a word of the name, aliases or summary ("pass" of "password"). */
  prefix: 3,
  /** A word of the query is somewhere in the rest of the text. */
  text: 1,
} as const

/**
 * A word that the titles and summaries of this many operations say ("decode", "string", "time")
 * names none of them: an alias of such a word is a claim only when it is the whole query, or when
 * another word of the query points at the operation too.
 */
const COMMON_SAYERS = 4

/** The query as the ranking reads it. */
interface Query {
  /** The words of the query that are common words (see `COMMON_SAYERS`). */
  common: ReadonlySet<string>
  /** Its words without stop words. */
  words: readonly string[]
  /** Those words joined by spaces. */
  normalized: string
  /** All its words joined by spaces, stop words included: a prefix of a name may end in one ("one" of "one-time password"). */
  typed: string
}

/** How well one operation answers the query; 0 when nothing matches. */
function scoreOf(item: Searchable, { common, words, normalized, typed }: Query): number {
  const name = item.name.replaceAll('-', ' ')
  if (words.length > 0 && (normalized === name || normalized === searchWords(item.title).join(' '))) return WEIGHT.exactName
  const nameParts = new Set(item.name.split('-'))
  const aliasTexts = item.aliases.map((alias) => searchWords(alias).join(' '))
  const aliasWords = new Set(aliasTexts.filter((alias) => !alias.includes(' ')))
  const phrases = [name, ...aliasTexts.filter((alias) => alias.includes(' '))]
  const summaryWords = new Set(searchWords(`${item.title} ${item.summary} ${phrases.join(' ')}`))
  const textWords = new Set(searchWords(item.text ?? ''))
  const known = [...nameParts, ...aliasWords, ...summaryWords]
  let score = name.startsWith(typed) || lowerWords(item.title).join(' ').startsWith(typed) ? WEIGHT.namePrefix : 0
  for (const phrase of phrases) if (` ${normalized} `.includes(` ${phrase} `)) score += WEIGHT.phrase
  const pointsHere = (word: string) => forms(word).some((form) => nameParts.has(form) || (aliasWords.has(form) && !common.has(form)))
  const claimed = words.length === 1 || words.some(pointsHere)
  for (const word of words) {
    const variants = forms(word)
    const alias = variants.find((form) => aliasWords.has(form))
    if (variants.some((form) => nameParts.has(form))) score += WEIGHT.namePart
    else if (alias !== undefined) score += claimed || !common.has(alias) ? WEIGHT.alias : WEIGHT.commonAlias
    else if (variants.some((form) => summaryWords.has(form))) score += WEIGHT.summary
    else if (word.length >= 3 && known.some((candidate) => candidate.startsWith(word))) score += WEIGHT.prefix
    else if (variants.some((form) => textWords.has(form))) score += WEIGHT.text
  }
  return score
}

/**
 * The operations that match the query, best first; ties keep the order given. The exact name or
 * title ranks first, then the names and titles the query begins; then aliases and names weigh most
 * (an alias that is a common word only when the query says nothing else, or points at the operation
 * too), the summary less, the rest of the text least. MCP's discovery and the web app's search box
 * both rank with it.
 */
export function searchOperations<T extends Searchable>(items: readonly T[], query: string): Array<SearchHit<T>> {
  const typed = lowerWords(query).join(' ')
  if (typed === '') return []
  const words = searchWords(query)
  const parsed: Query = { common: commonWords(items, words), words, normalized: words.join(' '), typed }
  return items
    .map((item) => ({ item, score: scoreOf(item, parsed) }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score)
}

/** Which forms of the query's words the titles and summaries of at least `COMMON_SAYERS` operations say. */
function commonWords(items: readonly Searchable[], words: readonly string[]): Set<string> {
  const sayers = new Map(words.flatMap(forms).map((form) => [form, 0]))
  for (const item of items) {
    for (const word of new Set(searchWords(`${item.title} ${item.summary}`))) {
      const count = sayers.get(word)
      if (count !== undefined) sayers.set(word, count + 1)
    }
  }
  return new Set([...sayers].filter(([, count]) => count >= COMMON_SAYERS).map(([word]) => word))
}

/** The name nearest to a mistyped one (at most two letters added, dropped or changed), if any is that near. */
export function closestName(names: readonly string[], typed: string): string | undefined {
  const lowered = typed.toLowerCase()
  let best: string | undefined
  let bestDistance = 3
  for (const name of names) {
    // The distance is at least the difference in length: a name that cannot come nearer is not
    // compared, so a long typed name costs nothing however long it is.
    if (Math.abs(name.length - lowered.length) >= bestDistance) continue
    const distance = editDistance(name, lowered)
    if (distance < bestDistance) {
      best = name
      bestDistance = distance
    }
  }
  return best
}
