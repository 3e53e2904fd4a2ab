// sd-bus's header. Its variadic functions (sd_bus_call_method, sd_bus_message_append …) do not import
// into Swift; RxDBus builds and reads messages with the non-variadic calls only.
#include <systemd/sd-bus.h>
#include <sys/eventfd.h>
#include <poll.h>
