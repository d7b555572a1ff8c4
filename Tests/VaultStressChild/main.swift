// A child process for DiaryVault's crash (SIGKILL) and multi-process tests; not part of the
// product. The tests in Tests/DiaryVaultTests (VaultCrashTests, VaultConcurrencyTests) start it
// with `Process`, read what it prints, and kill it.
//
//   diary-vault-stress crash-loop <vaultdir> <passfileA> <passfileB> <seed> [<max ops>]
//   diary-vault-stress add-many <vaultdir> <passfile> <count> <label> [<go file>]
//   diary-vault-stress migrate <vaultdir> <passfile>      (READY, then MIGRATED: index version 3)
//   diary-vault-stress recovery-loop <vaultdir> <passfile> (READY, then KEY <text> before and SET <epoch>
//                                                          after each replacement of the recovery key)
//
// Passphrases come from files, never from arguments (they would show in `ps`). Every line is
// written with one write(2) as soon as the operation it names has returned, so a line on
// stdout means the operation was durable; `BEGIN …` before an operation tells the parent what
// was in flight when it was killed. Lines (tags are comma-joined, `-` when none):
//
//   START <A|B>                          opened with passphrase A or B
//   BEGIN ADD - <hash> <star> <tags>     ADD <id> <hash> <star> <tags>
//   BEGIN UPD <id> <hash>                UPD <id> <hash>
//   BEGIN META <id> <star> <tags>        META <id> <star> <tags>
//   BEGIN DEL <id>                       DEL <id>
//   BEGIN PASS <A|B>                     PASS <A|B>       (the passphrase now in force)
//   BEGIN ROT                            ROT <generation>
//   READY                                END (max ops reached)        ERROR <message>
//
// `<hash>` is the lowercase hex of BLAKE2b-256 over the entry text's UTF-8 bytes.

import DiaryCrypto
import DiaryTestSupport
import DiaryVault
import Foundation

/// Writes one line with a single write(2): it reaches the pipe or file whole, or not at all,
/// even if the process is killed right after.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    emit("ERROR \(message)")
    FileHandle.standardError.write(Data("diary-vault-stress: \(message)\n".utf8))
    exit(2)
}

func readSecret(_ path: String) throws -> SecretBytes {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    return try SecretBytes(consuming: &bytes)
}

func tagField(_ tags: [String]) -> String { tags.isEmpty ? "-" : tags.joined(separator: ",") }

/// Random entry texts: Korean, Latin and emoji words, sometimes long enough to cross padding
/// buckets.
func randomText(_ rng: inout SeededGenerator) -> String {
    let words = [
        "오늘은", "날씨가", "좋았다", "서울의", "봄", "일기", "morning", "walk", "café", "naïve", "🌸", "👩‍💻",
        "notes", "비가", "내렸다", "coffee", "train", "기억",
    ]
    let count = Int.random(in: 1...(Int.random(in: 0..<10, using: &rng) == 0 ? 600 : 40), using: &rng)
    var lines: [String] = []
    var line: [String] = []
    for _ in 0..<count {
        line.append(words.randomElement(using: &rng)!)
        if Int.random(in: 0..<8, using: &rng) == 0 {
            lines.append(line.joined(separator: " "))
            line = []
        }
    }
    lines.append(line.joined(separator: " ") + " #\(rng.next() % 100_000)")
    return lines.joined(separator: "\n")
}

func randomTags(_ rng: inout SeededGenerator) -> [String] {
    let pool = ["work", "travel", "여행", "home", "family", "ideas"]
    return Array(pool.shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng))).sorted()
}

/// Opens `directory` with whichever of the two passphrases works; returns the vault and "A"/"B".
func openEither(_ directory: URL, _ a: SecretBytes, _ b: SecretBytes) throws -> (Vault, String) {
    do {
        return (try Vault.open(at: directory, passphrase: a), "A")
    } catch VaultError.wrongPassphrase {
        return (try Vault.open(at: directory, passphrase: b), "B")
    }
}

/// Add, update, star/tag, delete; a passphrase change every 20 operations and a key rotation
/// every 40, until killed.
func crashLoop(_ args: [String]) throws {
    guard args.count >= 4, let seed = UInt64(args[3]) else {
        fail("usage: crash-loop <dir> <passA> <passB> <seed> [<ops>]")
    }
    let directory = URL(fileURLWithPath: args[0])
    let pass = ["A": try readSecret(args[1]), "B": try readSecret(args[2])]
    let maxOps = args.count > 4 ? Int(args[4]) ?? 100_000 : 100_000
    var rng = SeededGenerator(seed: seed)
    var (vault, current) = try openEither(directory, pass["A"]!, pass["B"]!)
    emit("START \(current)")
    if vault.rotationInterrupted {
        // A rotation was killed: finish it first (a second run continues it, FORMAT.md §8).
        emit("BEGIN ROT")
        try vault.rotateKey(passphrase: pass[current]!, batchSize: 4)
        emit("ROT \(vault.keyGeneration)")
    }
    emit("READY")
    var live = try vault.list().map(\.id)
    // Start the cycle somewhere different each run, so short-lived runs also reach PASS and ROT.
    var n = Int(seed % 40)
    for _ in 0..<maxOps {
        n += 1
        if n % 40 == 0 {
            emit("BEGIN ROT")
            try vault.rotateKey(passphrase: pass[current]!, batchSize: 4)
            emit("ROT \(vault.keyGeneration)")
            continue
        }
        if n % 20 == 0 {
            let next = current == "A" ? "B" : "A"
            emit("BEGIN PASS \(next)")
            try vault.changePassphrase(current: pass[current]!, new: pass[next]!)
            current = next
            emit("PASS \(next)")
            continue
        }
        let roll = Int.random(in: 0..<100, using: &rng)
        if live.count < 6 || (roll < 35 && live.count < 40) {
            let text = randomText(&rng)
            let starred = Bool.random(using: &rng)
            let tags = randomTags(&rng)
            emit("BEGIN ADD - \(stressTextHash(text)) \(starred ? 1 : 0) \(tagField(tags))")
            let entry = try vault.add(text: text, starred: starred, tags: tags)
            live.append(entry.id)
            emit(
                "ADD \(entry.id.uuidString.lowercased()) \(stressTextHash(entry.text)) \(entry.starred ? 1 : 0) \(tagField(entry.tags))"
            )
            continue
        }
        let index = Int.random(in: 0..<live.count, using: &rng)
        let id = live[index]
        let name = id.uuidString.lowercased()
        if roll < 60 {
            let text = randomText(&rng)
            emit("BEGIN UPD \(name) \(stressTextHash(text))")
            let entry = try vault.update(id, text: text)
            emit("UPD \(name) \(stressTextHash(entry.text))")
        } else if roll < 80 {
            let starred = Bool.random(using: &rng)
            let tags = randomTags(&rng)
            emit("BEGIN META \(name) \(starred ? 1 : 0) \(tagField(tags))")
            let entry = try vault.update(id, starred: starred, tags: tags)
            emit("META \(name) \(entry.starred ? 1 : 0) \(tagField(entry.tags))")
        } else {
            emit("BEGIN DEL \(name)")
            try vault.delete(id)
            live.remove(at: index)
            emit("DEL \(name)")
        }
    }
    emit("END")
}

/// Adds `count` entries labelled `label`, after waiting for the go file (so two children start
/// writing at the same instant).
func addMany(_ args: [String]) throws {
    guard args.count >= 4, let count = Int(args[2]) else { fail("usage: add-many <dir> <pass> <count> <label> [<go>]") }
    let vault = try Vault.open(at: URL(fileURLWithPath: args[0]), passphrase: try readSecret(args[1]))
    emit("READY")
    if args.count > 4 {
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: args[4]) {
            guard Date() < deadline else { fail("the go file never appeared") }
            usleep(500)
        }
    }
    for i in 0..<count {
        let text = "\(args[3]) \(i)\n동시에 쓰는 일기 \(i) — concurrent entry"
        let entry = try vault.add(text: text, tags: [args[3]])
        emit("ADD \(entry.id.uuidString.lowercased()) \(stressTextHash(text))")
    }
    emit("DONE")
}

/// Opens the vault and migrates its index to the current version (the parent kills it midway).
func migrate(_ args: [String]) throws {
    guard args.count == 2 else { fail("usage: migrate <dir> <pass>") }
    let vault = try Vault.open(at: URL(fileURLWithPath: args[0]), passphrase: try readSecret(args[1]))
    emit("READY")
    try vault.migrateIndexIfNeeded()
    emit("MIGRATED")
}

func recoveryLoop(_ args: [String]) throws {
    guard args.count == 2 else { fail("usage: recovery-loop <dir> <pass>") }
    let vault = try Vault.open(at: URL(fileURLWithPath: args[0]), passphrase: try readSecret(args[1]))
    emit("READY")
    while true {
        let key = try RecoveryKey.generate()
        emit("KEY \(key.text)")
        _ = try vault.setRecoveryKey(publicKeyOf: key, replace: true, passphrase: try readSecret(args[1]))
        guard case .active(let epoch, _) = vault.recoveryStatus else { fail("no key after setting one") }
        emit("SET \(epoch)")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "crash-loop": try crashLoop(Array(arguments.dropFirst()))
    case "add-many": try addMany(Array(arguments.dropFirst()))
    case "migrate": try migrate(Array(arguments.dropFirst()))
    case "recovery-loop": try recoveryLoop(Array(arguments.dropFirst()))
    default: fail("usage: diary-vault-stress crash-loop|add-many|migrate …")
    }
} catch {
    fail("\(error)")
}
