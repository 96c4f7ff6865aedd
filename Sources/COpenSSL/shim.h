// The system's OpenSSL libcrypto (Debian: libssl-dev), for HMAC-SHA256 over webhook bodies: a
// maintained implementation instead of our own hash code, and no extra Swift package to build.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>
#endif
