import Glibc

/// Every connection is a file descriptor; the usual soft limit (1024) is below the default
/// connection limit, so `serve` raises its soft limit to the hard one before listening.
enum FileDescriptorLimit {
    static func raiseSoftLimitToHard() {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }
}
