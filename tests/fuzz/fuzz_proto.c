/* fuzz_proto.c - protocol frames as sluiced reads them from a socket
 * (libbatch/proto.c): decode every frame of the input in turn, with the
 * daemon's cap, as the connection's buffer would hold them. */
#include "fuzz.h"

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 0;

	while (off < size) {
		struct sl_err err = SL_ERR_INIT;
		const char *body = NULL;
		size_t body_len = 0, used = 0;
		uint16_t type = 0;
		int r = sl_proto_decode(data + off, size - off, SL_PROTO_MAX_BODY, &type, &body,
					&body_len, &used, &err);

		if (r != 1)
			break; /* more needed, or a bad frame: the connection ends */
		if (used == 0 || used > size - off || body + body_len > (const char *)data + off + used)
			abort(); /* a frame must consume itself and hold its body */
		(void)sl_proto_type_name(type);
		off += used;
	}
	return 0;
}
