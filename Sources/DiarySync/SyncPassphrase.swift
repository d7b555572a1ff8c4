import DiaryCrypto
import DiaryVault
import Foundation

/// Why a sync asks for the passphrase; the CLI words the prompt. `attempt` counts from 1:
/// a later one follows a passphrase that did not open, and the CLI gives nil when it has no
/// other to offer (a passphrase file, or the terminal's tries used up).
public enum PassphraseNeed: Sendable, Equatable {
    /// Another machine rotated the vault key: the header it published opens with the
    /// passphrase set there.
    case followRotation(machine: String, attempt: Int)
    /// The passphrase was changed here without sync being told (an interrupted passphrase
    /// change).
    case publishOwnChange(attempt: Int)

    public var attempt: Int {
        switch self {
        case .followRotation(_, let n), .publishOwnChange(let n): return n
        }
    }

    var again: PassphraseNeed {
        switch self {
        case .followRotation(let machine, let n): return .followRotation(machine: machine, attempt: n + 1)
        case .publishOwnChange(let n): return .publishOwnChange(attempt: n + 1)
        }
    }

    /// What to throw when nothing was offered at the first attempt.
    var unmet: SyncError {
        switch self {
        case .followRotation(let machine, _): return .needsPassphrase(machine: machine)
        case .publishOwnChange: return .needsPassphraseToPublish
        }
    }
}

/// The passphrase during one sync: asked of the caller when needed, and kept once it opened
/// something, so that one sync asks at most once for each passphrase it needs.
final class SyncPassphrase {
    /// Past a handful of tries the answer is not coming, whatever the caller offers.
    static let maximumAttempts = 8

    private let ask: (PassphraseNeed) throws -> SecretBytes?
    private var kept: SecretBytes?

    init(ask: @escaping (PassphraseNeed) throws -> SecretBytes?) {
        self.ask = ask
    }

    /// The passphrase that opened something in this sync, or else the caller's answer (not kept).
    func keptOrAsk(_ need: PassphraseNeed) throws -> SecretBytes? { try kept ?? ask(need) }

    /// Runs `use` with the passphrase. While `use` finds it wrong (`VaultError.wrongPassphrase`)
    /// the passphrase is asked for again, as long as the caller gives one (a terminal gives a
    /// few tries, a passphrase file one); then `onWrong` is thrown.
    func use<T>(_ need: PassphraseNeed, onWrong: @autoclosure () -> SyncError, _ use: (SecretBytes) throws -> T) throws
        -> T
    {
        var need = need
        while true {
            let given: SecretBytes?
            if need.attempt > Self.maximumAttempts {
                given = nil
            } else if need.attempt == 1 {
                given = try keptOrAsk(need)
            } else {
                given = try ask(need)
            }
            guard let given else { throw need.attempt > 1 ? onWrong() : need.unmet }
            do {
                let result = try use(given)
                kept = given
                return result
            } catch VaultError.wrongPassphrase {
                need = need.again
            }
        }
    }
}
