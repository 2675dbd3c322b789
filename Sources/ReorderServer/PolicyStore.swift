#if Server  // the server is built with the `Server` trait only (Package.swift)
import SpannedYAML
import Foundation
import ReorderPolicy
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One policy as served: compiled once per version, immutable and shared by every request.
public struct ServedPolicy: Sendable {
    /// The policy's `name`, which addresses it in URLs.
    public let name: String
    /// The file it was loaded from.
    public let file: String
    /// FNV-1a of the file's bytes, as in decision logs.
    public let hash: String
    /// The compiled policy.
    public let compiled: CompiledPolicy
}

/// What the server serves at one moment: a request takes one snapshot and keeps it to the end,
/// so it is decided by one policy version from start to end.
public struct PolicySnapshot: Sendable {
    /// Served policies by name.
    public var policies: [String: ServedPolicy] = [:]
    /// Load errors of files that are not (or no longer) served as written: shown by `/health`.
    public var errors: [Diagnostic] = []
}

/// The policies below the `--policies` paths, reloaded by polling. A changed file that fails
/// to load never replaces the version being served; its errors are kept for `/health`.
public final class PolicyStore: Sendable {
    /// A file as last seen: its identity on disk and what loading it gave.
    struct FileState: Sendable {
        var fingerprint: Fingerprint
        /// The version served for this file (the last good one when the current text fails).
        var served: ServedPolicy?
        /// Why the current text is not served.
        var errors: [Diagnostic]
        /// Files found through a directory that are not policies (tables, moves) are skipped.
        var skipped: Bool
    }

    /// Device, inode, size and modification time: a rewrite, an atomic rename or a touch changes it.
    struct Fingerprint: Hashable, Sendable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    }

    private struct State: Sendable {
        var files: [String: FileState] = [:]
        var snapshot = PolicySnapshot()
        /// Which file serves each name. A name stays with its file for as long as that file
        /// claims it (also while an edit of it fails to load); a newcomer never takes it over.
        var owners: [String: String] = [:]
    }

    /// The paths given with `--policies`.
    public let paths: [String]
    private let state = Mutex(State())

    /// Creates an empty store; call ``reload()`` to load.
    public init(paths: [String]) { self.paths = paths }

    /// The current snapshot.
    public var snapshot: PolicySnapshot { state.withLock { $0.snapshot } }

    /// What one reload changed.
    public struct ReloadOutcome: Sendable {
        /// Files whose text changed (added, edited, removed).
        public var changed = 0
        /// Changed files that failed to load.
        public var failed = 0
        /// Every error now standing (also those of earlier reloads not yet fixed).
        public var errors: [Diagnostic] = []
    }

    /// Looks at every file again, loads the ones that changed and swaps in a new snapshot.
    @discardableResult
    public func reload() -> ReloadOutcome {
        let (previous, previousOwners) = state.withLock { ($0.files, $0.owners) }
        var outcome = ReloadOutcome()
        var files: [String: FileState] = [:]
        var pathErrors: [Diagnostic] = []
        for path in paths {
            switch Self.kind(of: path) {
            case .missing:
                // A configured path that vanished (a deploy mid-rename): keep serving what it had.
                pathErrors.append(Diagnostic(code: .unreadable, message: "no such file or directory", file: path, span: Span(at: .start)))
                for (file, old) in previous where file == path || file.hasPrefix(path.hasSuffix("/") ? path : path + "/") {
                    files[file] = old
                }
            case .file:
                files[path] = Self.look(at: path, throughDirectory: false, previous: previous[path], outcome: &outcome)
            case .directory:
                for file in Linter.policyFiles(under: path) {
                    files[file] = Self.look(at: file, throughDirectory: true, previous: previous[file], outcome: &outcome)
                }
            }
        }
        outcome.changed += previous.filter { files[$0.key] == nil && !$0.value.skipped }.count

        // Names: the file that served a name keeps it while it still claims it, whatever the
        // file names' order; a name nobody held goes to the first claimant in path order (only
        // files that appear in the same reload compete that way).
        var byName: [String: ServedPolicy] = [:]
        var owners: [String: String] = [:]
        var errors = pathErrors
        let ordered = files.sorted { $0.key < $1.key }
        var claims: [String: [String]] = [:]
        for (file, entry) in ordered { if let name = entry.served?.name { claims[name, default: []].append(file) } }
        for (name, claimants) in claims.sorted(by: { $0.key < $1.key }) {
            let keeper = previousOwners[name].flatMap { claimants.contains($0) ? $0 : nil } ?? claimants[0]
            byName[name] = files[keeper]?.served  // a claimant: one of `files`' keys
            owners[name] = keeper
            for other in claimants where other != keeper {
                errors.append(Diagnostic(
                    code: .duplicatePolicyName, message: "policy name '\(name)' is already served from '\(keeper)'; this file is not served",
                    file: other, span: Span(at: .start), help: "rename one of the policies"))
            }
        }
        for (_, entry) in ordered { errors += entry.errors }
        let snapshot = PolicySnapshot(policies: byName, errors: errors)
        state.withLock {
            $0.files = files
            $0.snapshot = snapshot
            $0.owners = owners
        }
        outcome.errors = errors
        return outcome
    }

    private enum PathKind { case missing, file, directory }

    private static func kind(of path: String) -> PathKind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        return isDirectory.boolValue ? .directory : .file
    }

    private static func fingerprint(_ path: String) -> Fingerprint? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let mtime = info.st_mtimespec
        #else
        let mtime = info.st_mtim
        #endif
        return Fingerprint(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                           seconds: Int(mtime.tv_sec), nanoseconds: Int(mtime.tv_nsec))
    }

    /// The state of one file: the previous one when it has not changed, else loaded anew.
    private static func look(at file: String, throughDirectory: Bool, previous: FileState?, outcome: inout ReloadOutcome) -> FileState {
        let print = fingerprint(file) ?? Fingerprint(device: 0, inode: 0, size: -1, seconds: 0, nanoseconds: 0)
        if let previous, previous.fingerprint == print { return previous }
        let document: PolicyDocument
        do {
            document = try PolicyLoader.load(path: file)
        } catch {
            outcome.changed += 1
            outcome.failed += 1
            return FileState(fingerprint: print, served: previous?.served, errors: [error.diagnostic], skipped: false)
        }
        if throughDirectory && !document.declaresPolicy {
            if previous?.skipped == false { outcome.changed += 1 }
            return FileState(fingerprint: print, served: nil, errors: [], skipped: true)
        }
        outcome.changed += 1
        let errors = document.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let policy = document.policy else {
            outcome.failed += 1
            return FileState(fingerprint: print, served: previous?.served, errors: errors, skipped: false)
        }
        do {
            let compiled = try document.compile()
            let served = ServedPolicy(name: policy.name, file: file, hash: DecisionEvent.hash(document.source.bytes), compiled: compiled)
            return FileState(fingerprint: print, served: served, errors: [], skipped: false)
        } catch {
            outcome.failed += 1
            return FileState(fingerprint: print, served: previous?.served, errors: error.diagnostics, skipped: false)
        }
    }
}
#endif
