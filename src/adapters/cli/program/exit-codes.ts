// Process exit codes: 0 ok, 1 command failed, 2 usage error. Doctors define their own.
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_DOCTOR_COULD_NOT_RUN = 3;
