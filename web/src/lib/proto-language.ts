import { Language as ProtoLanguage } from '@/gen/repairs/type/v1/common_pb';
import type { Language } from './language';

/**
 * The contract's enum for a language. Apart from ./language, whose rules the prerendered
 * pages' boot script uses without loading the contract's code.
 */
export function toProtoLanguage(language: Language): ProtoLanguage {
  return language === 'fr' ? ProtoLanguage.FR : ProtoLanguage.EN;
}
