import Glibc

/// Processors this process may run on, read from the OS rather than Foundation so the HTTP module
/// stays free of Foundation.
enum ProcessorCount {
    static var online: Int {
        let count = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return count > 0 ? count : 1
    }
}
