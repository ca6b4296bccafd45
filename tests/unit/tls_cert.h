/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tls_cert.h - a key and a self-signed certificate of it for localhost
 * (P-256, an hour long), written where a test says, for the suites that
 * serve TLS: no openssl command, no file of the repository's
 */
#ifndef WAKEPROBE_TEST_TLS_CERT_H
#define WAKEPROBE_TEST_TLS_CERT_H

#include <criterion/criterion.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdio.h>

/* tls_key_write - a new P-256 key into @path, and the key, for the caller to free */
static inline EVP_PKEY *tls_key_write(const char *path)
{
	EVP_PKEY *key = EVP_EC_gen("P-256");
	FILE *f = fopen(path, "w");

	cr_assert_not_null(key);
	cr_assert_not_null(f);
	cr_assert(PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL));
	fclose(f);
	return key;
}

/* tls_cert_write - a key into @key_path, and a certificate of it for localhost into @cert_path */
static inline void tls_cert_write(const char *cert_path, const char *key_path)
{
	EVP_PKEY *key = tls_key_write(key_path);
	X509 *x = X509_new();
	FILE *f;

	cr_assert_not_null(x);
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	X509_gmtime_adj(X509_getm_notBefore(x), 0);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600);
	X509_set_pubkey(x, key);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC, (const unsigned char *)"localhost",
				   -1, -1, 0);
	X509_set_issuer_name(x, X509_get_subject_name(x));
	cr_assert(X509_sign(x, key, EVP_sha256()));
	f = fopen(cert_path, "w");
	cr_assert_not_null(f);
	cr_assert(PEM_write_X509(f, x));
	fclose(f);
	X509_free(x);
	EVP_PKEY_free(key);
}

#endif /* WAKEPROBE_TEST_TLS_CERT_H */
