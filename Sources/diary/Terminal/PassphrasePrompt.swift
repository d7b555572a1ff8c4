import DiaryApp
import DiaryCrypto
import Foundation

/// Reads a passphrase on `/dev/tty` with echo off.
///
/// The bytes go into a fixed buffer that is zeroed after they are copied into guarded memory,
/// so no growing array leaves stray copies behind. The terminal state is restored on every
/// path: normal return, error, and SIGINT/SIGTERM (through `SignalCleanup`).
enum PassphrasePrompt {
    /// The longest passphrase accepted at the prompt, in bytes.
    static let maximumBytes = 4096

    /// Prompts once and returns the passphrase normalised (NFC); refuses an empty one.
    static func read(_ prompt: String, on tty: TTY) throws -> SecretBytes {
        let raw = try readRaw(prompt, on: tty)
        guard raw.count > 0 else { throw CLIError.emptyPassphrase }
        return try Passphrase.normalized(raw)
    }

    /// Prompts once and returns the raw bytes as typed.
    private static func readRaw(_ prompt: String, on tty: TTY) throws -> SecretBytes {
        var saved = termios()
        let isTerminal = tcgetattr(tty.fd, &saved) == 0
        if isTerminal {
            SignalCleanup.install()
            SignalCleanup.rememberTerminal(fd: tty.fd, state: saved)
            var silent = saved
            // No echo, but echo the newline so the next output starts on its own line.
            silent.c_lflag &= ~tcflag_t(ECHO)
            silent.c_lflag |= tcflag_t(ECHONL)
            guard tcsetattr(tty.fd, TCSAFLUSH, &silent) == 0 else {
                SignalCleanup.forgetTerminal()
                throw CLIError.system(what: "cannot turn off echo on the terminal", errno: errno)
            }
        }
        defer {
            if isTerminal {
                tcsetattr(tty.fd, TCSAFLUSH, &saved)
                SignalCleanup.forgetTerminal()
            }
        }
        tty.write(prompt)

        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: maximumBytes)
        defer {
            buffer.update(repeating: 0)
            buffer.deallocate()
        }
        var count = 0
        var byte: UInt8 = 0
        reading: while true {
            let n = Glibc.read(tty.fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): break reading
            default:
                guard count < maximumBytes else {
                    byte = 0
                    throw CLIError.passphraseFile(path: "/dev/tty", detail: "longer than \(maximumBytes) bytes")
                }
                buffer[count] = byte
                count += 1
            }
        }
        byte = 0
        return try SecretBytes(count: count) { out in
            out.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[0..<count])))
        }
    }

    /// Prompts twice for a new passphrase; refuses an empty one. Two that differ are asked for
    /// again, up to `tries` pairs in all, then refused. One that `weakness` finds weak is
    /// refused before its repeat is asked for, with the reason, and asked for again, up to
    /// `weakTries` in all; then it is refused as weak (`CLIError.weakPassphrase`).
    static func readNew(
        on tty: TTY, label: String = "New passphrase", tries: Int = 1,
        weakTries: Int = 1, weakness: (SecretBytes) -> String? = { _ in nil }
    ) throws -> SecretBytes {
        var pair = 1, weak = 1
        while true {
            let first = try read("\(label): ", on: tty)
            if let reason = weakness(first) {
                guard weak < weakTries else { throw CLIError.weakPassphrase(reason: reason) }
                weak += 1
                tty.write("That passphrase is weak: \(reason). Choose another.\n")
                continue
            }
            let second = try read("\(label) (again): ", on: tty)
            if first.constantTimeEquals(second) { return first }
            guard pair < tries else { throw CLIError.passphraseMismatch }
            pair += 1
            tty.write("The passphrases do not match; try again.\n")
        }
    }
}
