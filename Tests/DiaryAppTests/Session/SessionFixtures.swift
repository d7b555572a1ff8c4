import DiaryApp
import DiaryCrypto
import DiaryTestSupport
import DiaryVault
import Foundation

/// An asker that answers from a script, and remembers what it was asked.
final class ScriptedAsker: PassphraseAsker {
    var answers: [String]
    var newAnswer: String?
    private(set) var asked: [(reason: PassphraseReason, attempt: Int)] = []

    /// `answers` are given in turn; with none (and no `newAnswer`) there is no one to ask.
    init(_ answers: [String] = [], newAnswer: String? = nil) {
        self.answers = answers
        self.newAnswer = newAnswer
    }

    var canAsk: Bool { !answers.isEmpty || newAnswer != nil }

    func ask(_ reason: PassphraseReason, attempt: Int) throws -> SecretBytes? {
        guard !answers.isEmpty else { return nil }
        asked.append((reason, attempt))
        return secretBytes(answers.removeFirst())
    }

    func askNew(
        triesOnMismatch: Int, weakTries: Int, weakness: (SecretBytes) -> PassphraseWeakness?
    ) throws -> SecretBytes? {
        newAnswer.map(secretBytes)
    }
}

/// An agent that answers as told, and remembers the keys it was handed.
final class FakeAgent: UnlockAgentLink {
    var answer: () -> AgentKeyAnswer
    /// Whether an agent of the vault runs (and so takes a key handed over).
    var running: Bool
    private(set) var handed: [(generation: UInt32, vaultID: UUID)] = []

    init(running: Bool = false, answer: @escaping () -> AgentKeyAnswer = { .unavailable }) {
        self.running = running
        self.answer = answer
    }

    func fetchKey(vaultID: UUID) -> AgentKeyAnswer { answer() }

    func handOver(_ key: SecretBytes, generation: UInt32, vaultID: UUID) throws -> Bool {
        guard running else { return false }
        handed.append((generation, vaultID))
        return true
    }
}

func secretBytes(_ text: String) -> SecretBytes {
    var bytes = Array(text.utf8)
    return try! SecretBytes(consuming: &bytes)
}

/// A test case with its own environment: `HOME` in the scratch directory, the test-only cost
/// announced (so no settings warning), and the events a session reports collected.
class SessionTestCase: VaultTestCase {
    var events: [AppEvent] = []

    var environment: DiaryEnvironment {
        DiaryEnvironment(["HOME": path("home").path, "DIARY_INSECURE_TEST_KDF": "1"])
    }

    func session(
        _ vault: URL, asker: ScriptedAsker = ScriptedAsker(), agent: FakeAgent = FakeAgent(),
        passphraseFile: String? = nil
    ) -> DiarySession {
        DiarySession(
            directory: vault, passphraseFileOption: passphraseFile, environment: environment,
            asker: asker, agent: agent, events: { [unowned self] in self.events.append($0) })
    }

    /// A file holding `passphrase` on its first line, closed to others.
    func passphraseFile(_ passphrase: String) throws -> String {
        let url = path("pass-\(UUID().uuidString.prefix(6))")
        try Data((passphrase + "\n").utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url.path
    }

    /// Flips a byte in the middle of the index page that holds `id` (files store): the root
    /// still opens, and the damage shows only when the page is read.
    func damagePage(of id: UUID, in vault: URL) throws {
        // The page of depth 6 holding the id (docs/FORMAT.md §7): a small vault never splits one.
        let page = 64 | Int(id.uuid.0 >> 2)
        let url = vault.appendingPathComponent("index/" + String(format: "%08x", page))
        var bytes = [UInt8](try Data(contentsOf: url))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: url)
    }

    var damageEvents: [AppEvent] {
        events.filter { if case .indexDamaged = $0 { return true } else { return false } }
    }
}
