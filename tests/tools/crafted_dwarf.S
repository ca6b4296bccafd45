/* SPDX-License-Identifier: GPL-2.0 */
/*
 * crafted_dwarf.S - DWARF 4 written by hand for two globals of
 * crafted_fixture.c, as a hostile program could ship it: no compiler
 * would. The fixture is built without debug information of its own, so
 * this is all the DWARF it has.
 *
 * crafted_stride is a char[2][2^32][2^32]: the stride of its first
 * dimension, 2^64 bytes, wraps to 0 in 64-bit arithmetic, and an
 * unchecked walk divides by it. crafted_deep is a struct deep of
 * DEEP_MEMBERS int members at offset 0, then one more there, a struct
 * deep itself: its byte 4 lies in no int, so a walk down to its member
 * reads every member and goes down into the last, as deep as it goes,
 * seconds of work for any name inside it.
 */
#define DEEP_MEMBERS 999999
	.section .debug_abbrev, "", @progbits
abbrevs:
	/* 1: the unit */
	.uleb128 1
	.uleb128 0x11		/* DW_TAG_compile_unit */
	.byte 1			/* children */
	.uleb128 0x25		/* DW_AT_producer */
	.uleb128 0x08		/* DW_FORM_string */
	.uleb128 0x13		/* DW_AT_language */
	.uleb128 0x0b		/* DW_FORM_data1 */
	.uleb128 0x03		/* DW_AT_name */
	.uleb128 0x08		/* DW_FORM_string */
	.uleb128 0
	.uleb128 0
	/* 2: a base type */
	.uleb128 2
	.uleb128 0x24		/* DW_TAG_base_type */
	.byte 0
	.uleb128 0x03		/* DW_AT_name */
	.uleb128 0x08		/* DW_FORM_string */
	.uleb128 0x3e		/* DW_AT_encoding */
	.uleb128 0x0b		/* DW_FORM_data1 */
	.uleb128 0x0b		/* DW_AT_byte_size */
	.uleb128 0x0b		/* DW_FORM_data1 */
	.uleb128 0
	.uleb128 0
	/* 3: an array type, its dimensions its children */
	.uleb128 3
	.uleb128 0x01		/* DW_TAG_array_type */
	.byte 1
	.uleb128 0x49		/* DW_AT_type */
	.uleb128 0x13		/* DW_FORM_ref4 */
	.uleb128 0
	.uleb128 0
	/* 4: a dimension with a count */
	.uleb128 4
	.uleb128 0x21		/* DW_TAG_subrange_type */
	.byte 0
	.uleb128 0x49		/* DW_AT_type */
	.uleb128 0x13		/* DW_FORM_ref4 */
	.uleb128 0x37		/* DW_AT_count */
	.uleb128 0x07		/* DW_FORM_data8 */
	.uleb128 0
	.uleb128 0
	/* 5: a global variable at a fixed address */
	.uleb128 5
	.uleb128 0x34		/* DW_TAG_variable */
	.byte 0
	.uleb128 0x03		/* DW_AT_name */
	.uleb128 0x08		/* DW_FORM_string */
	.uleb128 0x49		/* DW_AT_type */
	.uleb128 0x13		/* DW_FORM_ref4 */
	.uleb128 0x3f		/* DW_AT_external */
	.uleb128 0x19		/* DW_FORM_flag_present */
	.uleb128 0x02		/* DW_AT_location */
	.uleb128 0x18		/* DW_FORM_exprloc */
	.uleb128 0
	.uleb128 0
	/* 6: a structure type with its byte size */
	.uleb128 6
	.uleb128 0x13		/* DW_TAG_structure_type */
	.byte 1
	.uleb128 0x03		/* DW_AT_name */
	.uleb128 0x08		/* DW_FORM_string */
	.uleb128 0x0b		/* DW_AT_byte_size */
	.uleb128 0x0b		/* DW_FORM_data1 */
	.uleb128 0
	.uleb128 0
	/* 7: a member with no name, at an offset */
	.uleb128 7
	.uleb128 0x0d		/* DW_TAG_member */
	.byte 0
	.uleb128 0x49		/* DW_AT_type */
	.uleb128 0x13		/* DW_FORM_ref4 */
	.uleb128 0x38		/* DW_AT_data_member_location */
	.uleb128 0x0b		/* DW_FORM_data1 */
	.uleb128 0
	.uleb128 0
	/* 8: a member with a name, at an offset */
	.uleb128 8
	.uleb128 0x0d		/* DW_TAG_member */
	.byte 0
	.uleb128 0x03		/* DW_AT_name */
	.uleb128 0x08		/* DW_FORM_string */
	.uleb128 0x49		/* DW_AT_type */
	.uleb128 0x13		/* DW_FORM_ref4 */
	.uleb128 0x38		/* DW_AT_data_member_location */
	.uleb128 0x0b		/* DW_FORM_data1 */
	.uleb128 0
	.uleb128 0
	.uleb128 0

	.section .debug_info, "", @progbits
unit:
	.long unit_end - unit_version	/* unit_length */
unit_version:
	.short 4			/* DWARF 4 */
	.long abbrevs			/* debug_abbrev_offset */
	.byte 8				/* address_size */
	.uleb128 1			/* the unit */
	.asciz "crafted by hand"
	.byte 0x0c			/* DW_LANG_C99 */
	.asciz "crafted_dwarf.S"
char_type = . - unit
	.uleb128 2
	.asciz "char"
	.byte 0x06			/* DW_ATE_signed_char */
	.byte 1
int_type = . - unit
	.uleb128 2
	.asciz "int"
	.byte 0x05			/* DW_ATE_signed */
	.byte 4
index_type = . - unit
	.uleb128 2
	.asciz "sizetype"
	.byte 0x07			/* DW_ATE_unsigned */
	.byte 8
/* char[2][2^32][2^32] */
stride_type = . - unit
	.uleb128 3
	.long char_type
	.uleb128 4
	.long index_type
	.quad 2
	.uleb128 4
	.long index_type
	.quad 0x100000000
	.uleb128 4
	.long index_type
	.quad 0x100000000
	.byte 0
/* struct deep { int ...; struct deep deeper; }, all at offset 0 */
deep_type = . - unit
	.uleb128 6
	.asciz "deep"
	.byte 16
	.rept DEEP_MEMBERS
	.uleb128 7
	.long int_type
	.byte 0
	.endr
	.uleb128 8
	.asciz "deeper"
	.long deep_type
	.byte 0
	.byte 0
	.uleb128 5
	.asciz "crafted_stride"
	.long stride_type
	.uleb128 9			/* DW_OP_addr and 8 bytes */
	.byte 0x03			/* DW_OP_addr */
	.quad crafted_stride
	.uleb128 5
	.asciz "crafted_deep"
	.long deep_type
	.uleb128 9
	.byte 0x03
	.quad crafted_deep
	.byte 0				/* the unit's children end */
unit_end:

	.section .note.GNU-stack, "", @progbits
