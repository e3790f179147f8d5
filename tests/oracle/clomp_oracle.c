/* Prints the Checksum line a correct CLOMP run of the given seven arguments
 * must print, computed by the plain-array oracle. numThreads, allocThreads
 * and zoneSize do not change the math and are ignored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "oracle.h"

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr, "usage: clomp_oracle numThreads allocThreads numParts zonesPerPart zoneSize flopScale timeScale\n");
        return 2;
    }
    long P = atol(argv[3]), Z = atol(argv[4]), F = atol(argv[6]), T = atol(argv[7]);
    double iterations = ceil(1e6 * (double)T / ((double)P * (double)Z * (double)F));
    if (iterations > 2e9)
        iterations = 2e9;
    long subcycles = (long)iterations * 10;

    Oracle o;
    double sum, residue;
    oracle_init(&o, P, Z, F);
    oracle_run_serial(&o, subcycles);
    oracle_checksum(&o, &sum, &residue);
    printf("Scaled Iterations: %ld\n", (long)iterations);
    printf("Checksum: Sum=%-8.8g Residue=%-8.8g Total=%-.9g\n", sum, residue, sum + residue);
    oracle_free(&o);
    return 0;
}
