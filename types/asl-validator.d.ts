/** The part of asl-validator's API the state machine test uses (the package ships no types). */
declare module 'asl-validator' {
  interface ValidationResult {
    isValid: boolean;
    errors: { 'Error code': string; Message: string }[];
    errorsText(separator?: string): string;
  }
  function validator(definition: unknown, options?: { checkPaths?: boolean; checkArn?: boolean }): ValidationResult;
  export = validator;
}
