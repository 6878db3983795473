// Cross-check of simdnbt's Bedrock output against prismarine-nbt (issue 21).
//
//   node prismarine.mjs DIR
//
// DIR holds, for each corpus file NAME, the files simdnbt wrote:
//   NAME.java  the Java original,  NAME.le  simdnbt's little-endian form,
//   NAME.net   simdnbt's network (VarInt) form.
// For each NAME this script
//   1. parses the three with prismarine-nbt (`big`, `little`, `littleVarint`),
//      checks each parse used every byte, and compares the three values;
//   2. writes prismarine's own `little` and `littleVarint` forms of its `big`
//      parse to NAME.p-le and NAME.p-net, which the Rust side reads back.
// One line per file; the exit status is 1 if any value disagreed.
//
// Equality is exact and ordered: tag types, names, compound key order (as JS
// keeps it), list element types, every element. Longs (prismarine: [hi, lo]
// pairs from `big`/`little`, BigInt from `littleVarint`) are compared as
// signed 64-bit BigInts; floats and doubles (JS numbers) by the IEEE bits of
// that number, so -0 differs from 0 and NaN equals NaN; strings as JS strings.
//
// Two facts where prismarine-nbt 2.8.0 differs from the network form as
// gophertunnel, PocketMine and CloudburstMC write it (docs/format.md §7):
//   * `littleVarint` reads and writes IntArray and LongArray *elements* as
//     fixed-width little-endian (only the count is a VarInt). A document with
//     such an array is therefore also checked with prismarine's own protocol
//     definition with those two element types set to ZigZag VarInts
//     ("varint arrays" below), and prismarine's stock reading of our network
//     form is reported, not failed on.
//   * its writer takes longs for `littleVarint` only as BigInt (its issue
//     190), so longs are converted before writing.
import { createRequire } from 'node:module'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const require = createRequire(import.meta.url)
const nbt = require('prismarine-nbt')
const { ProtoDefCompiler } = require('protodef').Compiler

/**
 * prismarine's protocol for `format` with its two departures from the
 * Bedrock forms removed: a name may hold U+0000, and in `littleVarint` the
 * IntArray and LongArray elements are ZigZag VarInts. Built from prismarine's
 * own definitions the way it builds its own.
 */
function corrected (format) {
  const text = format === 'little'
    ? JSON.stringify(require('prismarine-nbt/nbt.json')).replace(/([iuf][0-7]+)/g, 'l$1')
    : JSON.stringify(require('prismarine-nbt/nbt-varint.json')).replace(/([if][0-7]+)/g, 'l$1')
  const json = JSON.parse(text)
  json.nbtTagName = 'shortString'
  if (format === 'littleVarint') {
    json.intArray[1].type = 'zigzag32'
    json.longArray[1].type = 'zigzag64'
  }
  const compiler = new ProtoDefCompiler()
  compiler.addTypes(require('prismarine-nbt/compiler-compound'))
  compiler.addTypes(require('prismarine-nbt/optional').compiler)
  compiler.addTypesToCompile(json)
  return compiler.compileProtoDefSync()
}
const protos = {
  ...nbt.protos,
  'little (corrected)': corrected('little'),
  'littleVarint (corrected)': corrected('littleVarint')
}

function parse (bytes, format) {
  const { data, metadata } = protos[format].parsePacketBuffer('nbt', bytes)
  if (metadata.size !== bytes.length) {
    throw new Error(`read ${metadata.size} of ${bytes.length} bytes`)
  }
  return data
}

const bits = new DataView(new ArrayBuffer(8))
const floatBits = (x) => { bits.setFloat64(0, x); return bits.getBigUint64(0) }
const long = (v) => BigInt.asIntN(64, typeof v === 'bigint' ? v : v.valueOf())

function show (v) {
  if (typeof v === 'bigint') return `${v}n`
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v)
  if (typeof v === 'string') return JSON.stringify(v)
  return String(v)
}

/**
 * What prismarine's `big` reader makes of the Java file's bytes for `s`: it
 * decodes Java's modified UTF-8 as UTF-8, so U+0000 (`C0 80`) and characters
 * above U+FFFF (a surrogate pair, 3 bytes each) come out as U+FFFD.
 */
function asBigReadsIt (s) {
  const bytes = []
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c !== 0 && c < 0x80) bytes.push(c)
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f))
    else bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f))
  }
  return Buffer.from(bytes).toString('utf8')
}

/**
 * Whether text `a` (from the `big` parse) and `b` are the same. With
 * `ctx.mutf8`, a `b` that `big` would read as `a` counts as the same and its
 * path goes to `ctx.explained`.
 */
function sameText (a, b, path, ctx) {
  if (a === b) return true
  if (ctx.mutf8 && asBigReadsIt(b) === a) {
    ctx.explained.push(path)
    return true
  }
  return false
}

/** The first difference between payloads `a` and `b` of `type`, or null. */
function diff (type, a, b, path, ctx) {
  const leaf = (x, y) => `${path}: ${show(x)} vs ${show(y)}`
  switch (type) {
    case 'string':
      return sameText(a, b, path, ctx) ? null : leaf(a, b)
    case 'byte': case 'short': case 'int':
      return a === b ? null : leaf(a, b)
    case 'long':
      return long(a) === long(b) ? null : leaf(long(a), long(b))
    case 'float': case 'double':
      return floatBits(a) === floatBits(b) ? null : leaf(a, b)
    case 'byteArray': case 'intArray': case 'longArray': {
      if (a.length !== b.length) return `${path}: length ${a.length} vs ${b.length}`
      const element = { byteArray: 'byte', intArray: 'int', longArray: 'long' }[type]
      for (let i = 0; i < a.length; i++) {
        const d = diff(element, a[i], b[i], `${path}[${i}]`, ctx)
        if (d) return d
      }
      return null
    }
    case 'list': {
      if (a.type !== b.type) return `${path}: list of ${a.type} vs ${b.type}`
      if (a.value.length !== b.value.length) {
        return `${path}: length ${a.value.length} vs ${b.value.length}`
      }
      for (let i = 0; i < a.value.length; i++) {
        const d = diff(a.type, a.value[i], b.value[i], `${path}[${i}]`, ctx)
        if (d) return d
      }
      return null
    }
    case 'compound': {
      const ka = Object.keys(a)
      const kb = Object.keys(b)
      for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
        if (kb[i] === undefined || !sameText(ka[i], kb[i], `${path} key #${i}`, ctx)) {
          return `${path}: key #${i} ${show(ka[i])} vs ${show(kb[i])}`
        }
        const d = diff(a[ka[i]].type, a[ka[i]].value, b[kb[i]].value, `${path}.${kb[i]}`, ctx)
        if (d) return d
        if (a[ka[i]].type !== b[kb[i]].type) {
          return `${path}.${ka[i]}: ${a[ka[i]].type} vs ${b[kb[i]].type}`
        }
      }
      return null
    }
    default:
      return `${path}: unknown type ${type}`
  }
}

/** The first difference between two parsed roots, or null. */
function diffRoots (a, b, ctx = { mutf8: false, explained: [] }) {
  if (a.type !== b.type) return `root: ${a.type} vs ${b.type}`
  if (!sameText(a.name, b.name, 'root name', ctx)) {
    return `root name: ${show(a.name)} vs ${show(b.name)}`
  }
  return diff(a.type, a.value, b.value, 'root', ctx)
}

/** Whether the payload holds an IntArray or LongArray anywhere. */
function hasWideArray (type, v) {
  if (type === 'intArray' || type === 'longArray') return true
  if (type === 'list') return v.value.some((e) => hasWideArray(v.type, e))
  if (type === 'compound') return Object.values(v).some((e) => hasWideArray(e.type, e.value))
  return false
}

/** Whether a compound in the payload has a name holding U+0000. */
function hasNulName (type, v) {
  if (type === 'list') return v.value.some((e) => hasNulName(v.type, e))
  if (type === 'compound') {
    return Object.entries(v).some(([k, e]) => k.includes('\0') || hasNulName(e.type, e.value))
  }
  return false
}

/** `root` with every Long a BigInt, the only long `littleVarint` writes. */
function bigintLongs (type, v) {
  switch (type) {
    case 'long': return long(v)
    case 'longArray': return v.map(long)
    case 'list': return { type: v.type, value: v.value.map((e) => bigintLongs(v.type, e)) }
    case 'compound': {
      const out = {}
      for (const [k, e] of Object.entries(v)) out[k] = { type: e.type, value: bigintLongs(e.type, e.value) }
      return out
    }
    default: return v
  }
}

const dir = process.argv[2]
if (!dir) {
  console.error('usage: node prismarine.mjs DIR')
  process.exit(2)
}
const names = readdirSync(dir).filter((f) => f.endsWith('.java')).map((f) => f.slice(0, -5)).sort()
let failed = 0
for (const name of names) {
  const read = (ext) => readFileSync(join(dir, `${name}.${ext}`))
  const problems = []
  const notes = []
  let big
  try {
    big = parse(read('java'), 'big')
  } catch (e) {
    console.log(`FAIL ${name}: prismarine cannot read the Java file: ${e.message}`)
    failed++
    continue
  }
  const wide = hasWideArray(big.type, big.value)
  const ctx = { mutf8: true, explained: [] }
  const parsed = {}
  for (const [format, ext] of [['little', 'le'], ['littleVarint', 'net']]) {
    const bytes = read(ext)
    let value
    try {
      value = parse(bytes, `${format} (corrected)`)
      parsed[format] = value
      const d = diffRoots(big, value, ctx)
      if (d) problems.push(`${format}: ${d}`)
    } catch (e) {
      problems.push(`${format}: ${e.message}`)
      continue
    }
    let stock = null
    try {
      stock = diffRoots(value, parse(bytes, format))
    } catch (e) {
      stock = e.message
    }
    if (stock) {
      const why = [
        format === 'littleVarint' && wide && 'fixed-width Int/LongArray elements',
        hasNulName(value.type, value.value) && 'U+0000 in a name refused'
      ].filter(Boolean)
      if (why.length) notes.push(`stock ${format} (${why.join('; ')}): ${stock}`)
      else problems.push(`stock ${format}: ${stock}`)
    }
  }
  if (ctx.explained.length) {
    notes.push(`${ctx.explained.length} strings differ only as big reads MUTF-8 as UTF-8, ` +
      `first ${ctx.explained[0]}; written back from the little parse`)
  }
  // What prismarine writes: from its `big` parse, unless that lost text.
  const source = ctx.explained.length && parsed.little ? parsed.little : big
  const root = { type: source.type, name: source.name, value: bigintLongs(source.type, source.value) }
  writeFileSync(join(dir, `${name}.p-le`), nbt.writeUncompressed(source, 'little'))
  writeFileSync(
    join(dir, `${name}.p-net`),
    wide
      ? protos['littleVarint (corrected)'].createPacketBuffer('nbt', root)
      : nbt.writeUncompressed(root, 'littleVarint')
  )
  if (problems.length) {
    failed++
    console.log(`FAIL ${name}`)
    for (const p of problems) console.log(`  ${p}`)
  } else {
    console.log(`ok   ${name}`)
  }
  for (const n of notes) console.log(`  note: ${n}`)
}
console.log(`${names.length} files, ${failed} disagreeing`)
process.exit(failed ? 1 : 0)
