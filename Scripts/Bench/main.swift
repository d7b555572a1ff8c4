// diary-bench: in-process measurements of the vault layer (no CLI, no process start-up).
// Scripts/bench and Scripts/bench-passwd drive it; results are JSON lines except for `passwd`.
//
//   diary-bench passwd [--kdf interactive|moderate|test] N…
//       builds a vault of N entries for each N (in both stores), then times changePassphrase.
//   diary-bench load --vault DIR --store sqlite|files --passphrase-file F --corpus FILE.jsonl
//                    [--count N] [--kdf moderate]
//       creates a vault and imports the corpus in one importEntries call.
//   diary-bench aead [--size BYTES] [--seconds S]
//       raw XChaCha20-Poly1305 open speed.
//   diary-bench search --vault DIR --passphrase-file F --query WORD [--runs N]
//       Vault.search in process, the vault already open.
//   diary-bench floor --vault DIR [--runs N | --passes-from stdin]
//       the search floor: libsodium opens the vault's sealed bytes (same sizes) on every core;
//       with --passes-from stdin, one pass per line read (Scripts/bench pairs them with a row's runs).
//   diary-bench attach --vault DIR --store sqlite|files --passphrase-file F --file PATH [--kdf test]
//   diary-bench extract --vault DIR --passphrase-file F --out PATH
//   diary-bench verify --vault DIR --passphrase-file F
//   diary-bench secretstream [--size BYTES]
//       attachments (Scripts/bench-attachments): one file attached, extracted, every chunk
//       checked; and the libsodium secretstream floor.
import DiaryCrypto
import DiaryVault
import Foundation

var args = Array(CommandLine.arguments.dropFirst())
let command = args.isEmpty ? "" : args.removeFirst()
switch command {
case "passwd":
    var kdfName = "interactive"
    if args.first == "--kdf", args.count > 1 {
        kdfName = args[1]
        args.removeFirst(2)
    }
    let sizes = args.compactMap(Int.init)
    try benchPasswd(kdf: kdf(named: kdfName), sizes: sizes.isEmpty ? [100, 10_000] : sizes)
case "load": try benchLoad(Options(args))
case "aead": try benchAEAD(Options(args))
case "search": try benchSearch(Options(args))
case "floor": try benchFloor(Options(args))
case "attach": try benchAttach(Options(args))
case "extract": try benchExtract(Options(args), keep: true)
case "verify": try benchExtract(Options(args), keep: false)
case "secretstream": try benchSecretStream(Options(args))
default:
    FileHandle.standardError.write(
        Data(
            "usage: diary-bench passwd|load|aead|search|floor|attach|extract|verify|secretstream … (see Scripts/Bench/main.swift)\n"
                .utf8))
    exit(64)
}
