// OpenSSL's libcrypto (Debian: libssl-dev), for SHA-256 through the EVP digest interface.
// Reached only from ResonanceIO.
#include <openssl/evp.h>
