#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An `errno` as users read it ("no such file", "permission denied", …): one wording for every
/// file that cannot be opened or read, whichever module reports it.
package enum SystemError {
    package static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ENAMETOOLONG: "the file name is too long"
        case ENOTDIR: "a part of the path is not a directory"
        case ELOOP: "too many symbolic links in the path"
        case EISDIR: "expected a file, found a directory"
        default: String(cString: strerror(code))
        }
    }
}
