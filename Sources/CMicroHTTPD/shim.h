// Non-variadic doorways into libmicrohttpd 0.9.75 for Swift.
//
// Swift cannot call C-variadic functions, and MHD's start, info and option calls are all variadic.
// Each wrapper below fixes the variadic tail to exactly what the Swift side needs, so nothing else
// in the project has to know about MHD's option-list conventions.
#ifndef LINKHOST_CMICROHTTPD_SHIM_H
#define LINKHOST_CMICROHTTPD_SHIM_H

#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>
#include <microhttpd.h>

/// Starts a daemon with its options given as an `MHD_OPTION_END`-terminated array.
/// (MHD_start_daemon is variadic; MHD_OPTION_ARRAY lets one fixed call carry any option list.)
static inline struct MHD_Daemon *linkhost_mhd_start(unsigned int flags,
                                                    MHD_AccessHandlerCallback handler,
                                                    void *handler_cls,
                                                    struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon's listen socket is bound to (the real one after binding port 0).
static inline uint16_t linkhost_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The peer address of a connection, or NULL when MHD cannot say.
static inline const struct sockaddr *linkhost_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// The per-connection pointer set in the MHD_OPTION_NOTIFY_CONNECTION callback, or NULL.
static inline void *linkhost_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// The socket of a connection, or -1 when MHD cannot say (the accept loop's registry is keyed by it).
static inline int linkhost_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// One option item; built here because `intptr_t`/pointer pairs are awkward to spell in Swift.
static inline struct MHD_OptionItem linkhost_mhd_option(enum MHD_OPTION option, intptr_t value, void *ptr_value) {
    struct MHD_OptionItem item;
    item.option = option;
    item.value = value;
    item.ptr_value = ptr_value;
    return item;
}

#endif
