import DiaryCrypto
import Foundation

/// Passphrase bytes for the benchmarks (never a real secret: they live in throwaway vaults).
func secret(_ s: String) -> SecretBytes {
    var b = Array(s.utf8)
    return try! SecretBytes(consuming: &b)
}

/// The first line of a passphrase file, as `diary --passphrase-file` reads it.
func passphrase(fromFile path: String) throws -> SecretBytes {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return secret(String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""))
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// CPU time (user + system) of this process so far: steadier than wall time on a shared machine.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func kdf(named name: String) -> KDFParameters {
    switch name {
    case "interactive": return .interactive
    case "moderate": return .moderate
    case "sensitive": return .sensitive
    case "test": return .insecureForTesting
    default: fail("unknown KDF \(name) (interactive, moderate, sensitive, test)")
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("diary-bench: error: \(message)\n".utf8))
    exit(1)
}

/// `--name value` options after a subcommand, plus the remaining positional arguments.
struct Options {
    var values: [String: String] = [:]
    var positional: [String] = []

    init(_ args: [String]) {
        var i = 0
        while i < args.count {
            if args[i].hasPrefix("--"), i + 1 < args.count {
                values[String(args[i].dropFirst(2))] = args[i + 1]
                i += 2
            } else {
                positional.append(args[i])
                i += 1
            }
        }
    }

    func required(_ name: String) -> String {
        guard let v = values[name] else { fail("--\(name) is required") }
        return v
    }
}

/// Prints one JSON object on stdout (what Scripts/bench parses), as one line written at once:
/// not through stdio's buffer, so a reader waiting for it (`floor --passes-from stdin`) gets it.
func emit(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}
